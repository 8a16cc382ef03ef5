// activities/late-events-activities.ts: what a fresh entity run learns of a closed payment's events registration.
// Only a definitive answer stands for the run (workflows/provider-payment/steps/announce-late.ts): a payment still
// running is "not yet", never "none".
import { ServiceError, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { createLateEventsActivities } from '../../../activities/late-events-activities';
import { ENTITY_RUNS_READ } from '../../../activities/late-events-sources';

interface FakeWorkflow {
  status: string;
  result?: () => Promise<unknown>;
  events?: { endpointUrl: string | null; pending: { id: string }[]; recentIds?: string[] };
  /** the payment's `state` query (answered by a closed run only while a worker of its build polls) */
  state?: { providerPaymentId: string | null; providerStatus: string | null; outcome: null };
  /** what the `state` query throws instead (no worker of the payment's PINNED build polls any more) */
  stateFails?: Error;
}

/**
 * What the client throws for a query no worker can answer: the server's FAILED_PRECONDITION ("No poller seen for task
 * queue recently") wrapped by WorkflowClient's rethrowGrpcError in a ServiceError (client/lib/workflow-client.js).
 */
function noPollerError(): ServiceError {
  const grpc = Object.assign(
    new Error('9 FAILED_PRECONDITION: No poller seen for task queue recently, worker may be down.'),
    { code: 9, details: 'No poller seen for task queue recently, worker may be down.', metadata: {} },
  );
  return new ServiceError('Failed to query Workflow', { cause: grpc });
}

/** the payment workflows whose `state` query was asked */
const queried: string[] = [];

function fakeClient(workflows: Record<string, FakeWorkflow>): () => Client {
  const client = {
    workflow: {
      getHandle: (id: string) => ({
        describe: async () => {
          // deleted past the namespace's retention
          if (workflows[id]?.status === 'GONE') throw new WorkflowNotFoundError('not found', id, undefined);
          return { status: { name: workflows[id]?.status ?? 'NOT_FOUND' } };
        },
        // a closed run with no result (failed, terminated, cancelled, timed out): what the client throws for it
        result: () =>
          workflows[id]?.result?.() ??
          Promise.reject(
            new WorkflowFailedError('Workflow execution terminated', undefined, 'NON_RETRYABLE_FAILURE'),
          ),
        query: async (def: { name: string }) => {
          if (def.name === 'state') {
            queried.push(id);
            if (workflows[id]?.stateFails) throw workflows[id]!.stateFails;
            const state = workflows[id]?.state;
            if (!state) throw new Error('query failed');
            return state;
          }
          const events = workflows[id]?.events;
          if (!events) throw new WorkflowNotFoundError('not found', id, undefined);
          return events;
        },
      }),
    },
  };
  return () => client as unknown as Client;
}

describe('findLateEventsRegistration', () => {
  it('a payment still running is not yet an answer (asked again later), never "none"', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': { status: 'RUNNING' },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toEqual({ notYet: 'payment-running' });
  });

  it('no payment of ours, or one that asked for no events, is a definitive none', async () => {
    const none = createLateEventsActivities({
      client: fakeClient({}),
      paymentWorkflowOf: async () => null,
    }).findLateEventsRegistration;
    await expect(none('pay_1')).resolves.toBeNull();
    const noEvents = createLateEventsActivities({
      client: fakeClient({ 'payment:k1': { status: 'COMPLETED' } }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(noEvents('pay_1')).resolves.toBeNull();
  });

  it('a payment that failed or was terminated (no outcome): what it READ is not what its backend was told', async () => {
    // The payment read COMPLETED; its events speak of phases, handed over at phase changes only, so a status read
    // within a phase (or read just before the run failed) may never have reached its backend. Only a hand-over id
    // says a move was told: none here, so the entity announces (a repeat under a stable id beats a loss).
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'TERMINATED',
          state: { providerPaymentId: 'pay_1', providerStatus: 'COMPLETED', outcome: null },
        },
        'payment-events:k1': {
          status: 'COMPLETED',
          events: { endpointUrl: 'https://b.example/ev', pending: [] },
        },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: 'https://b.example/ev',
      told: null,
    });
  });

  it('a closed payment no worker of its PINNED build can query any more still answers: told null, never lost', async () => {
    queried.length = 0;
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': { status: 'CANCELED', stateFails: noPollerError() },
        'payment-events:k1': { status: 'COMPLETED', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: null,
      told: null,
    });
    // nothing it says depends on a replay of the payment (a drained build would leave it unanswered for good)
    expect(queried).toEqual([]);
  });

  it('a result that cannot be read now (Temporal not answering, a codec error) is no answer: asked again, never "told nothing"', async () => {
    // told null for an outcome that did carry the move (a REFUNDED outcome) would announce it again under another id
    // than the phase event's: a refund credited twice. Only a run with no result, or one gone, is "no outcome".
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': { status: 'COMPLETED', result: () => Promise.reject(new Error('14 UNAVAILABLE')) },
        'payment-events:k1': { status: 'COMPLETED', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).rejects.toThrow('UNAVAILABLE');
  });

  it('a REJECTED or CANCELLED outcome with no snapshot of this payment counts as told nothing of it', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({ outcome: 'CANCELLED', reason: 'cancelled', payment: null }),
          stateFails: noPollerError(),
        },
        'payment-events:k1': { status: 'COMPLETED', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toMatchObject({ told: null });
  });

  it('an outcome that carries this payment says what its backend was told', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({
            outcome: 'COMPLETED',
            payment: { id: 'pay_1', status: 'COMPLETED', lifecycle: {} },
          }),
        },
        'payment-events:k1': { status: 'COMPLETED', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toMatchObject({ told: 'COMPLETED' });
  });

  it('a move the delivery workflow handed over is what was told last, whatever the outcome', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({ outcome: 'COMPLETED', payment: { id: 'pay_1', status: 'COMPLETED' } }),
        },
        'payment-events:k1': {
          status: 'COMPLETED',
          events: { endpointUrl: null, pending: [], recentIds: ['r:1', 'k1:moved:pay_1:REFUNDED'] },
        },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toMatchObject({ told: 'REFUNDED' });
  });
});

describe('the payment that followed a provider payment, when visibility no longer names it', () => {
  /**
   * A client whose visibility answers the two lookups: payments by ProviderPaymentId (`byProviderPaymentId`), and the
   * entity's completed runs (`entityRuns`, each with the result its run returned).
   */
  function visibilityClient(opts: {
    byProviderPaymentId: string | null;
    /** each run of the entity: its result once completed (`running` ones have none), the subscribe signals it got */
    entityRuns: { runId: string; result?: unknown; fails?: Error; running?: true; subscribedBy?: string[] }[];
    workflows: Record<string, FakeWorkflow>;
  }): { client: () => Client; queries: string[]; reads: string[] } {
    const queries: string[] = [];
    const reads: string[] = [];
    const base = fakeClient(opts.workflows)();
    const client = {
      workflow: {
        list: ({ query }: { query?: string }) =>
          (async function* () {
            queries.push(query ?? '');
            if (query?.includes("WorkflowType = 'payment'")) {
              if (opts.byProviderPaymentId) yield { workflowId: opts.byProviderPaymentId };
            } else if (query?.includes("WorkflowId = 'provider-payment:pay_old'"))
              for (const run of opts.entityRuns)
                if (!run.running || !query.includes("ExecutionStatus = 'Completed'"))
                  yield { workflowId: 'provider-payment:pay_old', runId: run.runId };
          })(),
        getHandle: (id: string, runId?: string) => {
          const run = opts.entityRuns.find((r) => r.runId === runId);
          if (id === 'provider-payment:pay_old' && run)
            return {
              result: async () => {
                reads.push(run.runId);
                if (run.fails) throw run.fails;
                return run.result;
              },
              // its history: the subscribe signals it got, as a payment's worker encoded them (no codec here)
              fetchHistory: async () => ({
                events: (run.subscribedBy ?? []).map((workflowId) => ({
                  workflowExecutionSignaledEventAttributes: {
                    signalName: 'subscribe',
                    input: { payloads: [defaultPayloadConverter.toPayload({ workflowId })] },
                  },
                })),
              }),
            };
          return base.workflow.getHandle(id);
        },
      },
      options: {
        namespace: 'default',
        loadedDataConverter: { payloadCodecs: [], payloadConverter: defaultPayloadConverter },
      },
    };
    return { client: () => client as unknown as Client, queries, reads };
  }

  /** The lookup a fresh run of `provider-payment:pay_old` on task queue `q` makes, through `client`. */
  const lookUp = (client: () => Client) =>
    createLateEventsActivities({ client, taskQueue: () => 'q' }).findLateEventsRegistration('pay_old');

  it("a requote's abandoned provider payment: its entity's last run names the payment whose events it kept", async () => {
    // the payment requoted: its ProviderPaymentId names the new provider payment, so visibility finds none for the
    // old one; the old one's entity lingered, ended, and a refund of late funds now starts a fresh run
    const { client, queries } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [
        { runId: 'r2', result: { subscribers: [], eventsFor: ['payment:k1'] } },
        { runId: 'r1', result: { subscribers: ['payment:k1'] } },
      ],
      workflows: {
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({ outcome: 'COMPLETED', payment: { id: 'pay_new' } }),
        },
        'payment-events:k1': {
          status: 'RUNNING',
          events: { endpointUrl: 'https://backend.example/hook', pending: [] },
        },
      },
    });
    await expect(lookUp(client)).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: 'https://backend.example/hook',
      told: null, // its outcome is of the new payment: the old one's move was told nothing (announced once)
    });
    // the entity's own ended runs, on its task queue, are asked first: visibility is not needed
    expect(queries).toEqual([
      "WorkflowId = 'provider-payment:pay_old' AND WorkflowType = 'providerPayment' AND TaskQueue = 'q' AND ExecutionStatus = 'Completed'",
    ]);
  });

  it('a run recorded before its result named them: the subscribers it still had; none at all is a definitive none', async () => {
    const older = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [{ runId: 'r1', result: { subscribers: ['payment:k1'] } }],
      workflows: {
        'payment:k1': { status: 'COMPLETED', result: async () => ({ outcome: 'COMPLETED' }) },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    await expect(lookUp(older.client)).resolves.toMatchObject({ subscriber: 'payment:k1' });
    const none = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [{ runId: 'r1', result: { subscribers: [], eventsFor: [] } }],
      workflows: {},
    });
    await expect(lookUp(none.client)).resolves.toBeNull();
  });

  it("the entity's own ended runs come before visibility: a payment another client marked with this ProviderPaymentId is not taken", async () => {
    // anyone with Temporal access can start a run `payment:forged` carrying the search attribute ProviderPaymentId =
    // pay_old (no payload needed); the entity's ended run, bound to it and written by its worker, names the real one
    const { client, queries } = visibilityClient({
      byProviderPaymentId: 'payment:forged',
      entityRuns: [{ runId: 'r1', result: { eventsFor: ['payment:k1'] } }],
      workflows: {
        'payment:k1': { status: 'COMPLETED', result: async () => ({ outcome: 'COMPLETED' }) },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    const found = await createLateEventsActivities({
      client,
      taskQueue: () => 'q',
    }).findLateEventsRegistration('pay_old');
    expect(found).toMatchObject({ subscriber: 'payment:k1' });
    expect(found).not.toHaveProperty('foundBy');
    expect(queries).toHaveLength(1);
  });

  it('visibility only when no ended run names a payment; what it names is marked, so the entity never passes it on', async () => {
    const { client, queries } = visibilityClient({
      byProviderPaymentId: 'payment:k1',
      entityRuns: [],
      workflows: {
        // its outcome names this provider payment: a record of its own that it followed it
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({
            outcome: 'COMPLETED',
            payment: { id: 'pay_old', status: 'COMPLETED', lifecycle: {} },
          }),
        },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    await expect(lookUp(client)).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: null,
      told: 'COMPLETED',
      foundBy: 'visibility',
    });
    expect(queries).toHaveLength(2);
  });

  it('a result is data: entries that are not workflow IDs are skipped, never thrown on', async () => {
    const { client } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [
        {
          runId: 'r1',
          result: { eventsFor: [42, null, { id: 'payment:x' }, 'payment:k1'], subscribers: 'payment:z' },
        },
      ],
      workflows: {
        'payment:k1': { status: 'COMPLETED', result: async () => ({ outcome: 'COMPLETED' }) },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    await expect(lookUp(client)).resolves.toMatchObject({ subscriber: 'payment:k1' });
  });

  it('the newest registration first; a result that cannot be read for good gives way to an older run; Temporal not answering is no answer', async () => {
    const events = { status: 'RUNNING', events: { endpointUrl: null, pending: [] } };
    const { client, reads } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [
        { runId: 'r3', fails: new Error('payload belongs to another workflow (codec)') },
        { runId: 'r2', result: { eventsFor: ['payment:first', 'payment:second'] } },
      ],
      workflows: {
        'payment:second': { status: 'COMPLETED', result: async () => ({ outcome: 'COMPLETED' }) },
        'payment-events:second': events,
      },
    });
    await expect(lookUp(client)).resolves.toMatchObject({ subscriber: 'payment:second' });
    expect(reads).toEqual(['r3', 'r2']);
    const unavailable = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [
        { runId: 'r1', fails: new ServiceError('Failed to get history') },
        { runId: 'r0', result: { eventsFor: ['payment:first'] } },
      ],
      workflows: {},
    });
    await expect(
      createLateEventsActivities({
        client: unavailable.client,
        taskQueue: () => 'q',
      }).findLateEventsRegistration('pay_old'),
    ).rejects.toBeInstanceOf(ServiceError);
  });

  it('reads one page of ended runs at most (an entity no payment followed has nothing to find)', async () => {
    const { client, reads } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: Array.from({ length: 25 }, (_, i) => ({ runId: `r${i}`, result: { subscribers: [] } })),
      workflows: {},
    });
    await expect(lookUp(client)).resolves.toBeNull();
    expect(reads).toHaveLength(ENTITY_RUNS_READ);
  });

  it('a payment gone past retention, named by its entity run, is closed: its delivery workflow still answers', async () => {
    const { client } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [{ runId: 'r1', result: { eventsFor: ['payment:k1'] } }],
      workflows: {
        'payment:k1': { status: 'GONE' },
        'payment-events:k1': {
          status: 'RUNNING',
          events: { endpointUrl: null, pending: [], recentIds: ['k1:moved:pay_old:REFUNDED'] },
        },
      },
    });
    await expect(lookUp(client)).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: null,
      told: 'REFUNDED',
    });
  });

  it('a payment only visibility named, with no record of its own that it followed this provider payment, is not told', async () => {
    // someone with Temporal access started `payment:forged` with the search attribute ProviderPaymentId = pay_old
    // (no payload): the run failed at once (no outcome) and its key's delivery workflow never handed a move of pay_old
    const { client } = visibilityClient({
      byProviderPaymentId: 'payment:forged',
      entityRuns: [],
      workflows: {
        'payment:forged': { status: 'FAILED' },
        'payment-events:forged': {
          status: 'RUNNING',
          events: {
            endpointUrl: 'https://another-backend.example/hook',
            pending: [],
            recentIds: ['forged:1'],
          },
        },
      },
    });
    await expect(lookUp(client)).resolves.toBeNull();
  });

  it("a payment only visibility named that subscribed to the entity (its signal in the entity's history) is told, with nothing told before", async () => {
    // an older build's entity (its ended result names none) and a payment terminated before an outcome: no outcome,
    // no move handed over, but its subscription is in the entity's own history
    const { client } = visibilityClient({
      byProviderPaymentId: 'payment:k1',
      entityRuns: [
        { runId: 'r2', running: true },
        { runId: 'r1', result: { subscribers: [] }, subscribedBy: ['payment:k1'] },
      ],
      workflows: {
        'payment:k1': { status: 'TERMINATED' },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    await expect(lookUp(client)).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: null,
      told: null,
      foundBy: 'visibility',
    });
  });

  it("a result naming whose events it kept is taken as it is: its subscribers stand only for an older run's result", async () => {
    const { client } = visibilityClient({
      byProviderPaymentId: null,
      entityRuns: [
        // the newest: it kept nobody's events (B asked for none), an older one kept A's
        { runId: 'r2', result: { eventsFor: [], subscribers: ['payment:b'] } },
        { runId: 'r1', result: { eventsFor: ['payment:a'] } },
      ],
      workflows: {
        'payment:a': { status: 'COMPLETED', result: async () => ({ outcome: 'COMPLETED' }) },
        'payment-events:a': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      },
    });
    await expect(lookUp(client)).resolves.toMatchObject({ subscriber: 'payment:a' });
  });
});
