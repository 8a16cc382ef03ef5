// Same key, other request → refused, like the service's 409 for a reused idempotency key.
// The request a workflow was started with is read back from its first history event, decoded with the client's
// own data converter (so a payload codec applies). Nothing is added to the memo or search attributes: a bare
// hash of a request would let anyone who can list workflows confirm a guessed amount/account pair, and the memo
// is not encrypted (house rules: no personal data in memo). One history page of one event per check.
import { isGrpcServiceError, type Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { z } from 'zod';
import { canonicalJson } from '../../workflows/request-fingerprint';

/** Thrown by startPayment / startTransfer when the key is taken by a workflow started with another request. */
export class IdempotencyKeyReusedError extends Error {
  readonly type = 'IDEMPOTENCY_KEY_REUSED';
  constructor(
    readonly key: string,
    readonly workflowId: string,
    /**
     * The fields whose values differ between this request and the one the key's workflow was started with
     * (`request.destination.accountId`, `limits.maxTotalFee`): names only, never the values. Empty when the stored
     * input could not be read as today's schema.
     */
    readonly fields: string[] = [],
  ) {
    super(
      `key ${key} is already used by ${workflowId} with another request${
        fields.length > 0 ? ` (different: ${fields.join(', ')})` : ''
      }; the same request attaches, another needs a new key`,
    );
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** The paths where two JSON values differ, as `a.b.c` (an array that differs is named as a whole). */
export function differingFields(ours: unknown, theirs: unknown, prefix = ''): string[] {
  const plain = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (plain(ours) && plain(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    return keys.flatMap((k) => differingFields(ours[k], theirs[k], prefix ? `${prefix}.${k}` : k));
  }
  return canonicalJson(ours) === canonicalJson(theirs) ? [] : [prefix || '(input)'];
}

/** JSON with object keys sorted at every level (shared with the workflow-side fingerprint). */
export { canonicalJson } from '../../workflows/request-fingerprint';

const GRPC_NOT_FOUND = 5;

/** The first argument the latest run of `workflowId` was started with; `undefined` when there is no such workflow. */
export async function startInputOf(
  client: Client,
  workflowId: string,
): Promise<{ input: unknown } | undefined> {
  const { namespace, loadedDataConverter } = client.workflow.options;
  let response;
  try {
    response = await client.workflowService.getWorkflowExecutionHistory({
      namespace,
      execution: { workflowId },
      maximumPageSize: 1,
    });
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND) return undefined;
    throw error;
  }
  const started = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) return undefined;
  // with the workflow's own context: the input is that workflow's payload (bound to it), and a payload without a
  // context inside a Nexus request is the caller's, read with the caller's keys (src/codec/nexus-caller-keys.ts)
  const [input] = await decodeArrayFromPayloads(loadedDataConverter, started.input?.payloads, {
    type: 'workflow',
    namespace,
    workflowId,
  });
  return { input };
}

/**
 * Refuses (IdempotencyKeyReusedError) when `workflowId` exists and was started with another input. Both sides
 * go through the same schema first, so defaults and key order do not count as a difference.
 * Returns whether the workflow exists.
 */
export async function assertSameRequest<S extends z.ZodType>(
  client: Client,
  schema: S,
  key: string,
  workflowId: string,
  ours: z.output<S>,
): Promise<boolean> {
  const found = await startInputOf(client, workflowId);
  if (!found) return false;
  const theirs = schema.safeParse(found.input);
  if (!theirs.success) throw new IdempotencyKeyReusedError(key, workflowId);
  if (canonicalJson(theirs.data) !== canonicalJson(ours))
    throw new IdempotencyKeyReusedError(key, workflowId, differingFields(ours, theirs.data));
  return true;
}
