// The Nexus endpoint that routes the `xborder` service (src/nexus/service.ts) to the worker's task queue, created on
// the dev server by `xborder dev`, `npm start` and the end-to-end stack. The operator API call is what
// `temporal operator nexus endpoint create --name <name> --target-namespace <ns> --target-task-queue <tq>` makes;
// on a real cluster or Temporal Cloud an operator creates it (docs/deployment.md, "Nexus endpoint").
import { Connection, isGrpcServiceError } from '@temporalio/client';
import { XBORDER_NEXUS_ENDPOINT } from '../nexus/service';

export interface NexusEndpointTarget {
  /** default `xborder` (XBORDER_NEXUS_ENDPOINT) */
  name?: string;
  namespace: string;
  taskQueue: string;
}

/**
 * Creates the endpoint, or leaves it as it is when it already targets this namespace and task queue, or points it
 * there when it targets another (a dev server reused across runs with another task queue). Idempotent.
 */
export async function ensureNexusEndpoint(
  address: string,
  target: NexusEndpointTarget,
  log: (line: string) => void = () => undefined,
): Promise<'created' | 'unchanged' | 'updated'> {
  const name = target.name ?? XBORDER_NEXUS_ENDPOINT;
  const spec = { name, target: { worker: { namespace: target.namespace, taskQueue: target.taskQueue } } };
  const connection = await Connection.connect({ address });
  try {
    const { endpoints } = await connection.operatorService.listNexusEndpoints({ name, pageSize: 1 });
    const existing = endpoints?.find((e) => e.spec?.name === name);
    if (existing) {
      const worker = existing.spec?.target?.worker;
      if (worker?.namespace === target.namespace && worker?.taskQueue === target.taskQueue)
        return 'unchanged';
      await connection.operatorService.updateNexusEndpoint({
        id: existing.id,
        version: existing.version,
        spec,
      });
      log(`Nexus endpoint ${name} now targets ${target.namespace}/${target.taskQueue}`);
      return 'updated';
    }
    try {
      await connection.operatorService.createNexusEndpoint({ spec });
    } catch (error) {
      const ALREADY_EXISTS = 6; // another process created it between the list and the create: fine
      if (isGrpcServiceError(error) && error.code === ALREADY_EXISTS) return 'unchanged';
      throw error;
    }
    log(`Nexus endpoint ${name} created: ${target.namespace}/${target.taskQueue}`);
    return 'created';
  } finally {
    await connection.close();
  }
}
