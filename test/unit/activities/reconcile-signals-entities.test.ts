// reconcileRecentPayments (activities/reconcile-activities.ts) signals each PAYIN/conversion's entity through the
// entity's one front door (workflows/provider-payment/api.ts): the ingress's policies, the payment as the provider
// client parsed it, one event id per status seen. A followed payment's running entity is told only a final status
// its indexed PaymentStatus lacks (visibility), once per run.
import {
  createReconcileActivities,
  entitiesNotFinalQuery,
  paymentsAwaitingFundsQuery,
} from '../../../activities/reconcile-activities';
import { scheduleOfRun } from '../../../activities/last-completed-sweep';
import type { Payment } from '../../../src/contract';
import { normalizePayment } from '../../../src/contract';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
} from '../../../workflows/provider-payment/api';
import { currentPayment } from '../contract/fixtures';
import { recordingClient, type ListedWorkflow } from '../../support/recording-client';

const created = (at: string) => ({ ...currentPayment().lifecycle, createdAt: at });
/** A lifecycle with only its creation set (the other stamps null): what a test adds is all it has. */
const stampsOnly = (at: string) => ({
  createdAt: at,
  sentAt: null,
  completedAt: null,
  expiredAt: null,
  refundedAt: null,
});

function payout(id: string, status: string, createdAt = '2026-11-21T10:00:00Z'): Payment {
  return normalizePayment({
    ...currentPayment(),
    id,
    type: 'PAYOUT',
    status,
    source: { ...currentPayment().source, accountId: undefined },
    lifecycle: created(createdAt),
  });
}

function activitiesOver(listed: Payment[], visible: ListedWorkflow[] = []) {
  const { client, calls, lists } = recordingClient(visible);
  const pulled: Payment[] = [];
  const activities = createReconcileActivities({
    provider: {
      payments: {
        async *listAll() {
          for (const p of listed) {
            pulled.push(p);
            yield p;
          }
        },
      },
    } as never,
    client: () => client,
    taskQueue: () => 'q-reconcile',
    heartbeat: () => undefined,
  });
  return { activities, calls, lists, pulled };
}

describe('reconcileRecentPayments', () => {
  it('signalWithStarts the entity of a recent PAYIN with the parsed payment, and skips ordered payouts', async () => {
    const payin: Payment = normalizePayment({
      ...currentPayment(),
      id: 'pay_in_1',
      type: 'PAYIN',
      lifecycle: created('2026-11-21T10:00:00Z'),
    });
    const { activities, calls } = activitiesOver([payin, payout('pay_out_1', 'SENT')]);
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({
      listed: 2,
      signalled: ['pay_in_1'],
      entitiesNotFinal: 0,
      followedSignalled: 0,
      movedSignalled: 0,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].type).toBe(PROVIDER_PAYMENT_WORKFLOW_TYPE);
    expect(calls[0].options).toEqual({
      workflowId: 'provider-payment:pay_in_1',
      taskQueue: 'q-reconcile',
      args: [{ providerPaymentId: 'pay_in_1' }],
      signal: providerPaymentEventSignal,
      signalArgs: [
        {
          eventId: `reconcile:pay_in_1:${payin.status}`,
          type: 'payment.reconciled',
          payment: payin,
          from: 'reconcile-sweep',
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  });

  it('tells a running entity whose indexed status is not final the final status the listing shows, once', async () => {
    // listed twice (a page boundary the service moved): still one signal in the run
    const completed = payout('pay_out_done', 'COMPLETED', '2026-11-01T10:00:00Z'); // older than the window: a payout may be funded late
    const { activities, calls, lists } = activitiesOver(
      [completed, completed],
      [{ workflowId: 'provider-payment:pay_out_done', paymentStatus: 'AWAITING_FUNDS' }],
    );
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({
      listed: 2,
      signalled: [],
      entitiesNotFinal: 1,
      followedSignalled: 1,
      movedSignalled: 0,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].options).toEqual(
      expect.objectContaining({
        workflowId: 'provider-payment:pay_out_done',
        signal: providerPaymentEventSignal,
        signalArgs: [
          {
            eventId: 'reconcile:pay_out_done:COMPLETED',
            type: 'payment.reconciled',
            payment: completed,
            from: 'reconcile-sweep',
          },
        ],
      }),
    );
    // two visibility lists: this task queue's running entities without a final PaymentStatus, and the payments still
    // waiting for funds (their lost funding webhook: reconcile-tells-lost-funding.test.ts)
    expect(lists).toEqual([
      { query: entitiesNotFinalQuery('q-reconcile'), pageSize: 1000 },
      { query: paymentsAwaitingFundsQuery('q-reconcile'), pageSize: 1000 },
    ]);
    expect(lists[0].query).toContain("ExecutionStatus = 'Running'");
    expect(lists[0].query).toContain("TaskQueue = 'q-reconcile'");
    expect(lists[0].query).toMatch(
      /PaymentStatus NOT IN \('COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED', 'CANCELLED'\)/,
    );
  });

  it('does not signal an entity that already indexed a final status, one not running, or a payment still on its way', async () => {
    const { activities, calls } = activitiesOver(
      [payout('pay_a', 'COMPLETED'), payout('pay_b', 'FAILED'), payout('pay_c', 'SENT')],
      [
        { workflowId: 'provider-payment:pay_a', paymentStatus: 'COMPLETED' }, // listed although the query excludes it: visibility lag
        { workflowId: 'provider-payment:pay_c', paymentStatus: 'AWAITING_FUNDS' }, // SENT is not final: the entity's reads cover it
      ],
    );
    // pay_b has no running entity: nothing here follows it (a closed entity's payment has had its outcome)
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(calls).toEqual([]);
    expect(result).toEqual({
      listed: 3,
      signalled: [],
      entitiesNotFinal: 1,
      followedSignalled: 0,
      movedSignalled: 0,
    });
  });

  it('tells a PAYIN older than the window only through its running entity, when the entity lacks its final status', async () => {
    const oldPayin: Payment = normalizePayment({
      ...currentPayment(),
      id: 'pay_in_old',
      type: 'PAYIN',
      status: 'COMPLETED',
      lifecycle: created('2026-11-01T10:00:00Z'),
    });
    const { activities, calls } = activitiesOver(
      [oldPayin],
      [{ workflowId: 'provider-payment:pay_in_old', paymentStatus: 'PROCESSING' }],
    );
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({
      listed: 1,
      signalled: [],
      entitiesNotFinal: 1,
      followedSignalled: 1,
      movedSignalled: 0,
    });
    expect(calls.map((c) => c.options.workflowId)).toEqual(['provider-payment:pay_in_old']);
  });

  it('stops after maxListed payments', async () => {
    const many = Array.from({ length: 10 }, (_, i) => payout(`pay_${i}`, 'COMPLETED'));
    const visible = many.map((p) => ({ workflowId: `provider-payment:${p.id}`, paymentStatus: 'PENDING' }));
    const { activities, calls, pulled } = activitiesOver(many, visible);
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z', maxListed: 4 });
    expect(result).toEqual({
      listed: 4,
      signalled: [],
      entitiesNotFinal: 10,
      followedSignalled: 4,
      movedSignalled: 0,
      listingCut: true, // 10 listed, 4 seen: the rest was not
    });
    expect(calls.map((c) => c.options.workflowId)).toEqual([
      'provider-payment:pay_0',
      'provider-payment:pay_1',
      'provider-payment:pay_2',
      'provider-payment:pay_3',
    ]);
    expect(pulled.length).toBeLessThanOrEqual(5); // one past the bound is read to know it is reached
  });

  it('reads at most maxEntities running entities', async () => {
    const many = Array.from({ length: 5 }, (_, i) => payout(`pay_${i}`, 'COMPLETED'));
    const visible = many.map((p) => ({ workflowId: `provider-payment:${p.id}` })); // none indexed yet
    const { activities, calls } = activitiesOver(many, visible);
    const result = await activities.reconcileRecentPayments({
      since: '2026-11-21T00:00:00Z',
      maxEntities: 2,
    });
    expect(result).toEqual({
      listed: 5,
      signalled: [],
      entitiesNotFinal: 2,
      followedSignalled: 2,
      movedSignalled: 0,
      listingCut: true, // the entities past the second were not read
    });
    expect(calls).toHaveLength(2);
  });
  it('hands a payment refunded after its outcome within the window to its entity that no longer reads, once per run, under an id with its timestamps', async () => {
    // late funds refunded on an EXPIRED payout: the status stays EXPIRED, refundedAt is added (spec: States and
    // transitions, row 4); its entity lingers terminal or has ended (not listed as running not final)
    const lifecycle = { ...stampsOnly('2026-11-18T10:00:00Z'), expiredAt: '2026-11-20T10:00:00Z' };
    const refunded = normalizePayment({
      ...payout('pay_late', 'EXPIRED'),
      lifecycle: { ...lifecycle, refundedAt: '2026-11-21T09:00:00Z' },
    });
    const earlier = normalizePayment({
      ...payout('pay_old', 'EXPIRED'),
      lifecycle: { ...lifecycle, refundedAt: '2026-11-20T23:59:59Z' }, // before the window: an earlier run's
    });
    const { activities, calls } = activitiesOver([refunded, earlier, refunded]);
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({
      listed: 3,
      signalled: [],
      entitiesNotFinal: 0,
      followedSignalled: 0,
      movedSignalled: 1,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].options).toEqual(
      expect.objectContaining({
        workflowId: 'provider-payment:pay_late',
        signalArgs: [
          {
            eventId:
              'reconcile:pay_late:EXPIRED:createdAt=2026-11-18T10:00:00Z,expiredAt=2026-11-20T10:00:00Z,refundedAt=2026-11-21T09:00:00Z',
            type: 'payment.reconciled',
            payment: refunded,
            from: 'reconcile-sweep',
          },
        ],
      }),
    );
  });

  it('two sweeps over the same listing signal a move after the outcome once: the next looks back to the last completed run', async () => {
    // refunded at 09:00; the Schedule's run at 10:00 completed and told it; the run at 10:15 lists the same record
    const lifecycle = { ...stampsOnly('2026-11-18T10:00:00Z'), expiredAt: '2026-11-20T10:00:00Z' };
    const refunded = normalizePayment({
      ...payout('pay_late', 'EXPIRED'),
      lifecycle: { ...lifecycle, refundedAt: '2026-11-21T09:00:00Z' },
    });
    const { client, calls } = recordingClient();
    let lastCompleted: number | null = null;
    const activities = createReconcileActivities({
      provider: {
        payments: {
          async *listAll() {
            yield refunded;
          },
        },
      } as never,
      client: () => client,
      taskQueue: () => 'q-reconcile',
      heartbeat: () => undefined,
      lastCompletedSweepAt: async () => lastCompleted,
    });
    // each run's 6-hour window holds the move; the first knows no completed run before it (the whole window)
    const first = await activities.reconcileRecentPayments({ since: '2026-11-21T04:00:00Z' });
    expect(first.movedSignalled).toBe(1);
    lastCompleted = Date.parse('2026-11-21T10:00:00Z');
    const second = await activities.reconcileRecentPayments({ since: '2026-11-21T04:15:00Z' });
    expect(second.movedSignalled).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('a move in the overlap before the last completed run is told again (a record listed late is not missed)', async () => {
    const lifecycle = { ...stampsOnly('2026-11-18T10:00:00Z'), expiredAt: '2026-11-20T10:00:00Z' };
    const refunded = normalizePayment({
      ...payout('pay_late', 'EXPIRED'),
      lifecycle: { ...lifecycle, refundedAt: '2026-11-21T09:55:00Z' },
    });
    const { client, calls } = recordingClient();
    const activities = createReconcileActivities({
      provider: {
        payments: {
          async *listAll() {
            yield refunded;
          },
        },
      } as never,
      client: () => client,
      taskQueue: () => 'q-reconcile',
      heartbeat: () => undefined,
      lastCompletedSweepAt: async () => Date.parse('2026-11-21T10:00:00Z'),
    });
    const run = await activities.reconcileRecentPayments({ since: '2026-11-21T04:15:00Z' });
    expect(run.movedSignalled).toBe(1);
    expect(calls).toHaveLength(1);
  });

  /**
   * A sweep over one payment refunded after its outcome (a move), with a client whose Schedule `payment-reconcile`
   * started `runs` (newest last, each with its status and start), on task queue `scheduleQueue`.
   */
  function sweepWithSchedule(opts: {
    runs: { runId: string; status: string; startTime: string }[];
    scheduleQueue?: string;
    scheduleFails?: Error;
    scheduleId?: string | null;
  }) {
    const refunded = normalizePayment({
      ...payout('pay_late', 'EXPIRED'),
      lifecycle: {
        ...stampsOnly('2026-11-18T10:00:00Z'),
        expiredAt: '2026-11-20T10:00:00Z',
        refundedAt: '2026-11-21T09:00:00Z',
      },
    });
    const { client, calls } = recordingClient();
    const asked: string[] = [];
    const fake = {
      workflow: {
        ...client.workflow,
        getHandle: (workflowId: string, runId: string) => ({
          describe: async () => {
            asked.push(`describe ${workflowId} ${runId}`);
            const run = opts.runs.find((r) => r.runId === runId)!;
            return { status: { name: run.status }, startTime: new Date(run.startTime) };
          },
        }),
      },
      schedule: {
        getHandle: (scheduleId: string) => ({
          describe: async () => {
            asked.push(`schedule ${scheduleId}`);
            if (opts.scheduleFails) throw opts.scheduleFails;
            return {
              action: { type: 'startWorkflow', taskQueue: opts.scheduleQueue ?? 'q-reconcile' },
              info: {
                recentActions: opts.runs.map((r, i) => ({
                  takenAt: new Date(Date.parse('2026-11-21T00:00:00Z') + i * 15 * 60_000),
                  action: {
                    type: 'startWorkflow',
                    workflow: {
                      workflowId: `schedule:payment-reconcile-${r.runId}`,
                      firstExecutionRunId: r.runId,
                    },
                  },
                })),
              },
            };
          },
        }),
      },
    };
    const activities = createReconcileActivities({
      provider: {
        payments: {
          listAll: async function* () {
            yield refunded;
          },
        },
      } as never,
      client: () => fake as never,
      taskQueue: () => 'q-reconcile',
      scheduleId: () => (opts.scheduleId === undefined ? 'payment-reconcile' : opts.scheduleId),
      heartbeat: () => undefined,
    });
    return {
      moved: async () =>
        (await activities.reconcileRecentPayments({ since: '2026-11-21T04:15:00Z' })).movedSignalled,
      calls,
      asked,
    };
  }

  it("narrows its look-back by the newest completed run its Schedule started (the Schedule's own record, not a search attribute any client may set)", async () => {
    // the newest action still runs (this run), the one before failed: the one before that completed, started at
    // 10:00, after the move (09:00) less the overlap: it told it, so this run does not
    const seen = sweepWithSchedule({
      runs: [
        { runId: 'r1', status: 'COMPLETED', startTime: '2026-11-21T10:00:00Z' },
        { runId: 'r2', status: 'FAILED', startTime: '2026-11-21T10:15:00Z' },
        { runId: 'r3', status: 'RUNNING', startTime: '2026-11-21T10:30:00Z' },
      ],
    });
    expect(await seen.moved()).toBe(0);
    expect(seen.asked).toEqual([
      'schedule payment-reconcile',
      'describe schedule:payment-reconcile-r3 r3',
      'describe schedule:payment-reconcile-r2 r2',
      'describe schedule:payment-reconcile-r1 r1',
    ]);
    // a completed run that started before the move less the overlap did not tell it: told now
    const older = sweepWithSchedule({
      runs: [{ runId: 'r1', status: 'COMPLETED', startTime: '2026-11-21T08:00:00Z' }],
    });
    expect(await older.moved()).toBe(1);
  });

  it('the whole window when its Schedule cannot say: none completed, Temporal not answering, another task queue, or a run started by hand', async () => {
    const cases = [
      sweepWithSchedule({ runs: [{ runId: 'r1', status: 'FAILED', startTime: '2026-11-21T10:00:00Z' }] }),
      sweepWithSchedule({ runs: [], scheduleFails: new Error('unavailable') }),
      sweepWithSchedule({
        runs: [{ runId: 'r1', status: 'COMPLETED', startTime: '2026-11-21T10:00:00Z' }],
        scheduleQueue: 'another-deployment',
      }),
      sweepWithSchedule({
        runs: [{ runId: 'r1', status: 'COMPLETED', startTime: '2026-11-21T10:00:00Z' }],
        scheduleId: null,
      }),
    ];
    for (const sweep of cases) expect(await sweep.moved()).toBe(1);
    // a run by hand reads nothing of any Schedule
    expect(cases[3]!.asked).toEqual([]);
  });

  it("knows a Schedule's run from its workflow ID, and a run by hand from any other", () => {
    expect(scheduleOfRun('schedule:payment-reconcile-2026-11-21T10:00:00Z')).toBe('payment-reconcile');
    expect(scheduleOfRun('schedule:payment-reconcile-q2-2026-11-21T10:00:00Z')).toBe('payment-reconcile-q2');
    expect(scheduleOfRun('schedule:payment-reconcile')).toBeNull(); // the action itself, never a run
    expect(scheduleOfRun('reconcile-k1234abcd')).toBeNull();
    expect(scheduleOfRun('')).toBeNull();
  });

  it('tells a running entity not final a refunded payment as a final status, once in the run (not again as a move)', async () => {
    const refunded = normalizePayment({
      ...payout('pay_r', 'REFUNDED'),
      lifecycle: { ...stampsOnly('2026-11-18T10:00:00Z'), refundedAt: '2026-11-21T09:00:00Z' },
    });
    const { activities, calls } = activitiesOver(
      [refunded, refunded],
      [{ workflowId: 'provider-payment:pay_r', paymentStatus: 'PROCESSING' }],
    );
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({
      listed: 2,
      signalled: [],
      entitiesNotFinal: 1,
      followedSignalled: 1,
      movedSignalled: 0,
    });
    expect(calls.map((c) => (c.options.signalArgs as { eventId: string }[])[0].eventId)).toEqual([
      'reconcile:pay_r:REFUNDED:createdAt=2026-11-18T10:00:00Z,refundedAt=2026-11-21T09:00:00Z',
    ]);
  });
});
