// makeCurrentIfNone (src/client/worker-deployments.ts; docs/deployment.md, "Safe deploys with Worker Versioning"):
// the first build of a deployment becomes current, a later one never moves current by itself, and the wait for
// the server to know the build is retried within a bound. A fake WorkflowService; the dev server runs it in
// test/e2e/payments.e2e.test.ts and test/e2e/worker-versioning.e2e.test.ts.
import type { Client } from '@temporalio/client';
import { makeCurrentIfNone } from '../../src/client/worker-deployments';

/** What the gRPC layer throws: an Error with a code, details and metadata (isGrpcServiceError). */
function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code}: ${details}`), { code, details, metadata: {} });
}

interface FakeServer {
  current: string | null;
  token: number;
  describeFailures: Error[];
  setFailures: Error[];
  sets: Array<{ buildId: string; conflictToken: Uint8Array }>;
}

function fakeClient(server: FakeServer): Client {
  return {
    options: { namespace: 'default', identity: 'test' },
    workflowService: {
      describeWorkerDeployment: async () => {
        const failure = server.describeFailures.shift();
        if (failure) throw failure;
        return {
          conflictToken: Uint8Array.of(server.token),
          workerDeploymentInfo: {
            routingConfig: server.current ? { currentDeploymentVersion: { buildId: server.current } } : {},
          },
        };
      },
      setWorkerDeploymentCurrentVersion: async (request: { buildId: string; conflictToken: Uint8Array }) => {
        const failure = server.setFailures.shift();
        if (failure) throw failure;
        if (request.conflictToken[0] !== server.token) throw grpcError(9, 'conflict token mismatch');
        server.sets.push(request);
        server.current = request.buildId;
        server.token += 1;
        return {};
      },
    },
  } as unknown as Client;
}

const server = (over: Partial<FakeServer> = {}): FakeServer => ({
  current: null,
  token: 1,
  describeFailures: [],
  setFailures: [],
  sets: [],
  ...over,
});
const version = { deploymentName: 'xborder', buildId: 'b2' };
const fast = { retryEveryMs: 1 };

it('makes the build current when the deployment has none, with the conflict token of its read', async () => {
  const s = server();
  expect(await makeCurrentIfNone(fakeClient(s), version, fast)).toEqual({
    action: 'made-current',
    deploymentName: 'xborder',
    buildId: 'b2',
  });
  expect(s.sets).toEqual([expect.objectContaining({ buildId: 'b2', conflictToken: Uint8Array.of(1) })]);
});

it('leaves the deployment alone when the build is already current, or another build is', async () => {
  const same = server({ current: 'b2' });
  expect(await makeCurrentIfNone(fakeClient(same), version, fast)).toMatchObject({
    action: 'already-current',
  });
  const other = server({ current: 'b1' });
  expect(await makeCurrentIfNone(fakeClient(other), version, fast)).toEqual({
    action: 'other-current',
    deploymentName: 'xborder',
    buildId: 'b2',
    currentBuildId: 'b1',
  });
  expect([...same.sets, ...other.sets]).toEqual([]);
});

it('waits for the server to know the build: not found, missing task queues and a lost race are retried', async () => {
  const s = server({
    describeFailures: [grpcError(5, 'deployment not found')],
    setFailures: [
      grpcError(9, 'missing active task queues from the current version'),
      grpcError(5, 'version not found'),
    ],
  });
  expect(await makeCurrentIfNone(fakeClient(s), version, fast)).toMatchObject({ action: 'made-current' });
  expect(s.sets).toHaveLength(1);
});

it('loses a race to another build without moving current: it re-reads and finds the other one current', async () => {
  const s = server();
  const client = fakeClient(s);
  const describe = client.workflowService.describeWorkerDeployment.bind(client.workflowService);
  let first = true;
  // between this read and its write, another build becomes current (and the token moves on)
  (client.workflowService as { describeWorkerDeployment: unknown }).describeWorkerDeployment = async (
    ...args: Parameters<typeof describe>
  ) => {
    const answer = await describe(...args);
    if (first) {
      first = false;
      s.current = 'b1';
      s.token += 1;
    }
    return answer;
  };
  expect(await makeCurrentIfNone(client, version, fast)).toMatchObject({
    action: 'other-current',
    currentBuildId: 'b1',
  });
  expect(s.sets).toEqual([]);
});

it('gives up after its bound, and at once on an error time does not cure, naming the deployment and build', async () => {
  const never = server({
    describeFailures: Array.from({ length: 10_000 }, () => grpcError(5, 'deployment not found')),
  });
  await expect(
    makeCurrentIfNone(fakeClient(never), version, { timeoutMs: 50, retryEveryMs: 5 }),
  ).rejects.toThrow(
    /could not make build b2 current in Worker Deployment xborder: no Worker Deployment "xborder"/,
  );
  const denied = server({ describeFailures: [grpcError(7, 'permission denied')] });
  // (a retry would read again, find no current build and succeed: the rejection shows it was not retried)
  await expect(makeCurrentIfNone(fakeClient(denied), version, { timeoutMs: 60_000 })).rejects.toThrow(
    /permission denied/,
  );
  expect(denied.sets).toEqual([]);
});
