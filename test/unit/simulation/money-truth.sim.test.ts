// Money truth by construction, searched for by simulation (model-based testing, after TigerBeetle's VOPR and
// FoundationDB's simulation testing). fast-check generates histories of:
// - what the service really does (service-model.ts: every transition of the spec's state machine, late funds after
//   EXPIRED refunded, refunds and bank returns after COMPLETED, failures), at any delay;
// - how it is delivered: each true change pushed once, then delivered, again under the same or a new id, in any
//   order, delayed past the entity's linger, or dropped; plus signed forgeries with any status, timestamps, amounts,
//   codes;
// - the entity's reads (started and answered apart, so anything can land in between), the payment's own reads,
//   the reconcile sweep's listing (a command, and on the Schedule's ticks as time passes), a caller's cancel,
//   continue-as-new of the entity, registration lookups Temporal does not answer (fewer than the rule's bound);
// and checks, on the pure decision code the workflows run (world.ts):
// 1. NOTHING FROM A PUSH ALONE: every state the entity holds, the payment decides on or the backend is told equals a
//    state a read of ours returned;
// 2. OUTCOME MATCHES THE SERVICE: the decided state is one the service had, and the backend last hears the service's
//    final record;
// 3. TOLD EXACTLY ONCE, IN ORDER: no move is told twice, none before one it followed;
// 4. ENDS OR IS FLAGGED WITHIN THE BOUND: no push is left held without a read, and once the service's record has an
//    outcome, the payment has decided after the entity's read of a held push (at once) and the Schedule's next sweep
//    (at most 15 minutes after it: world.ts, SWEEP_EVERY_MS), which tells a running entity not final the final status
//    its lost webhook carried — no periodic read of the payment or the entity any more; a push a read does not bear
//    out is counted as a mismatch (flagged); a move after the outcome whose push is lost is told by that sweep too;
// and a cancel is refused only on funds a read showed.
// A failure prints its seed and the shrunk commands; replay it with XBORDER_SIM_SEED=<seed> XBORDER_SIM_PATH=<path>.
// Longer profile: XBORDER_SIM_RUNS=100000 npx jest test/unit/simulation.
import fc from 'fast-check';
import type { Payment } from '../../../src/contract';
import { snapshot } from '../workflows/decisions/fixtures';
import { START_MS } from './service-model';
import { ENTITY_LINGER_MS, World } from './world';

const RUNS = Number(process.env.XBORDER_SIM_RUNS ?? 3000);
const SEED = process.env.XBORDER_SIM_SEED === undefined ? undefined : Number(process.env.XBORDER_SIM_SEED);
const PATH = process.env.XBORDER_SIM_PATH;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
type Cmd = fc.Command<object, World>;

function command(name: string, run: (w: World) => void): Cmd {
  return { check: () => true, run: (_m, w) => run(w), toString: () => name };
}

const delay = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 60 }).map((m) => m * MINUTE),
  fc.integer({ min: 1, max: 70 }).map((d) => d * DAY),
);
const stamp = fc.option(
  fc.integer({ min: -2, max: 80 }).map((d) => new Date(START_MS + d * DAY).toISOString()),
  { nil: null },
);

/** A signed push with anything in it. */
const forged: fc.Arbitrary<Payment> = fc
  .record({
    status: fc.constantFrom(
      'AWAITING_FUNDS',
      'PENDING',
      'PROCESSING',
      'SENT',
      'COMPLETED',
      'FAILED',
      'REFUNDED',
      'EXPIRED',
      'CANCELLED',
      'ON_HOLD',
    ),
    lifecycle: fc.record({ sentAt: stamp, completedAt: stamp, expiredAt: stamp, refundedAt: stamp }),
    code: fc.constantFrom(null, 'FUNDS_RETURNED_BY_RECEIVING_BANK', 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED'),
    amount: fc.constantFrom(100, 1, 1_000_000),
  })
  .map(({ status, lifecycle, code, amount }) => {
    const p = snapshot(status, lifecycle, { error: code ? ({ code } as never) : null });
    return { ...p, source: { ...p.source, amount } };
  });

const serviceMove = fc
  .tuple(fc.nat({ max: 5 }), delay)
  .map(([choice, ms]) =>
    command(`service move #${choice} after ${ms / MINUTE} min`, (w) => w.serviceMoves(choice, ms)),
  );
const delivery = fc
  .tuple(fc.nat(), fc.constantFrom('once', 'sameId', 'newId') as fc.Arbitrary<'once' | 'sameId' | 'newId'>)
  .map(([i, again]) => command(`deliver #${i} ${again}`, (w) => w.deliver(i, again)));
/** fc.commands picks each arbitrary alike: the service moves and deliveries are listed more often, so histories get far. */
const commands: fc.Arbitrary<Cmd>[] = [
  serviceMove,
  serviceMove,
  serviceMove,
  serviceMove,
  delivery,
  delivery,
  fc.nat().map((i) => command(`drop #${i}`, (w) => w.drop(i))),
  forged.map((p) =>
    command(
      `forge ${p.status} ${JSON.stringify(p.lifecycle)} ${JSON.stringify(p.error)} ${p.source.amount}`,
      (w) => w.forge(p),
    ),
  ),
  fc.constant(command('entity read starts', (w) => w.startRead())),
  fc.constant(command('entity read answers', (w) => w.landRead())),
  fc.constant(command('payment reads', (w) => w.paymentReads())),
  fc.constant(command('reconcile sweep', (w) => w.sweep())),
  fc.constant(command('cancel', (w) => w.cancel())),
  fc.constant(command('entity continues as new', (w) => w.crash())),
  fc.constant(command('registration lookup unanswered', (w) => w.lookupUnanswered())),
  fc
    .constantFrom(MINUTE, DAY, ENTITY_LINGER_MS + DAY)
    .map((ms) => command(`time passes ${ms / MINUTE} min`, (w) => w.passTime(ms))),
];

/** What the generated histories reached: a generator that never reaches a refund after COMPLETED proves nothing. */
export interface Coverage {
  histories: number;
  decided: Record<string, number>;
  movedAfterOutcome: number;
  mismatchesFlagged: number;
  cancelsRefused: number;
}

function property(options: ConstructorParameters<typeof World>[0], coverage?: Coverage) {
  return fc.property(fc.commands(commands, { maxCommands: 60, size: 'max' }), (cmds) => {
    const world = new World(options);
    fc.modelRun(() => ({ model: {}, real: world }), cmds);
    world.settle();
    world.checkSettled();
    if (coverage) {
      coverage.histories++;
      const outcome = world.decided?.outcome ?? 'none';
      coverage.decided[outcome] = (coverage.decided[outcome] ?? 0) + 1;
      if (world.told.some((t) => t.kind === 'moved')) coverage.movedAfterOutcome++;
      if ((world.entity?.mismatches ?? 0) > 0) coverage.mismatchesFlagged++;
      if (world.cancelRefused > 0) coverage.cancelsRefused++;
    }
  });
}

function params(runs: number): fc.Parameters<[Iterable<Cmd>]> {
  return {
    numRuns: runs,
    ...(SEED !== undefined ? { seed: SEED } : {}),
    ...(PATH ? { path: PATH } : {}),
    endOnFailure: false,
  };
}

if (process.env.XBORDER_SIM_PROBE) {
  const options = JSON.parse(process.env.XBORDER_SIM_PROBE) as ConstructorParameters<typeof World>[0];
  it(`probe ${process.env.XBORDER_SIM_PROBE}`, () => fc.assert(property(options), params(RUNS)));
}

describe('simulation: money truth by construction (pure decisions of the entity and the payment)', () => {
  it(`holds the invariants over ${RUNS} generated histories (every after-outcome change delivered at least once; an entity read may answer what the service held when it started)`, () => {
    const coverage: Coverage = {
      histories: 0,
      decided: {},
      movedAfterOutcome: 0,
      mismatchesFlagged: 0,
      cancelsRefused: 0,
    };
    fc.assert(
      property(
        { dropsAfterOutcome: false, staleInFlightReads: true, stalePushesAfterLinger: true },
        coverage,
      ),
      params(RUNS),
    );
    console.info(`simulation coverage: ${JSON.stringify(coverage)}`);
    // the histories reach every outcome, moves after it, flagged forgeries and refused cancels (checked on enough runs)
    if (RUNS < 1000) return;
    for (const outcome of ['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED'])
      expect(coverage.decided[outcome] ?? 0).toBeGreaterThan(RUNS / 100);
    expect(coverage.movedAfterOutcome).toBeGreaterThan(RUNS / 100);
    expect(coverage.mismatchesFlagged).toBeGreaterThan(RUNS / 100);
    expect(coverage.cancelsRefused).toBeGreaterThan(RUNS / 100);
  });

  it(`holds the invariants over ${RUNS} generated histories in which a push of a move after the outcome may be lost (the reconcile sweep on the Schedule's ticks tells it)`, () => {
    const coverage: Coverage = {
      histories: 0,
      decided: {},
      movedAfterOutcome: 0,
      mismatchesFlagged: 0,
      cancelsRefused: 0,
    };
    fc.assert(
      property({ dropsAfterOutcome: true, staleInFlightReads: true, stalePushesAfterLinger: true }, coverage),
      params(RUNS),
    );
    console.info(`simulation coverage (moves after the outcome may be lost): ${JSON.stringify(coverage)}`);
    if (RUNS < 1000) return;
    expect(coverage.movedAfterOutcome).toBeGreaterThan(RUNS / 100);
  });

  it("finds a push that decides under the entity's rule before every push waited for a read (only final statuses held)", () => {
    const result = fc.check(
      property({
        dropsAfterOutcome: false,
        staleInFlightReads: false,
        stalePushesAfterLinger: false,
        holdsOnlyFinalPushes: true,
      }),
      { numRuns: 2000, seed: 1932486645 },
    );
    expect(result.failed).toBe(true);
    expect(String(result.errorInstance)).toContain('NOTHING FROM A PUSH ALONE');
  });
});

describe('a signed PROCESSING carrying refundedAt, the service saying PROCESSING', () => {
  function history(options: ConstructorParameters<typeof World>[0]): World {
    const world = new World(options);
    world.serviceMoves(0, MINUTE); // funded: PENDING (row 2)
    world.serviceMoves(0, MINUTE); // PROCESSING
    world.readNow();
    world.forge({ ...snapshot('PROCESSING', { refundedAt: new Date(START_MS + DAY).toISOString() }) });
    world.settle();
    world.checkSettled();
    return world;
  }
  it('was taken with no read under the rule that held only final statuses (and then decided REFUNDED)', () => {
    expect(() =>
      history({
        dropsAfterOutcome: false,
        staleInFlightReads: false,
        stalePushesAfterLinger: false,
        holdsOnlyFinalPushes: true,
      }),
    ).toThrow(/NOTHING FROM A PUSH ALONE/);
  });
  it('is held for the read, which does not bear it out: flagged, nothing decided', () => {
    const world = history({
      dropsAfterOutcome: false,
      staleInFlightReads: false,
      stalePushesAfterLinger: false,
    });
    expect(world.decided).toBeNull();
    expect(world.entity?.mismatches).toBe(1);
    expect(world.entity?.payment?.status).toBe('PROCESSING');
  });
});

describe('counterexamples the simulation found (fixed, and kept as tests)', () => {
  // Found with staleInFlightReads: seed -794783835, path "57:5:11:16:15:18:18:24:26:21:19:17:15:14:15:15:15:15:17"
  // (XBORDER_SIM_RUNS=30000). An earlier variant (a stale EXPIRED told after the refund the payment read) is fixed on
  // main by entity-takes-final-reads; this one goes through the merge: a change from a status the contract does not
  // name is taken as news (payment-merge.ts, compareSnapshots), even back from a final status.
  it('an entity read that answers after the payment decided on its own newer read does not move the entity back (a final status is never left for an unknown one without a new timestamp)', () => {
    const world = new World({
      dropsAfterOutcome: false,
      staleInFlightReads: true,
      stalePushesAfterLinger: false,
    });
    world.serviceMoves(0, MINUTE); // funded: PENDING (row 2)
    world.serviceMoves(1, DAY); // ON_HOLD, a status the spec does not name (rule 3)
    world.startRead(); // the entity's GET is on its way: it answers ON_HOLD
    world.serviceMoves(0, DAY); // PROCESSING
    world.serviceMoves(1, MINUTE); // FAILED
    world.paymentReads(); // the payment reads FAILED, tells its entity (taken: our own read), decides FAILED
    expect(() => {
      world.landRead(); // the entity's GET lands: ON_HOLD is "news" after FAILED; told as payment.moved_after_outcome
      world.settle();
      world.checkSettled();
    }).not.toThrow();
  });

  // Found with dropsAfterOutcome: seed -1202153601, path "1502:6:5:10:9:9". A terminal entity no longer reads and the
  // sweep told only entities not final: fixed by the sweep telling a record that moved after its outcome within its
  // window to an entity that no longer reads (workflows/provider-payment/sweep-decision.ts).
  it('a refund after the outcome whose webhook is lost reaches the backend once, through the reconcile sweep (a terminal entity no longer reads)', () => {
    const world = new World({
      dropsAfterOutcome: true,
      staleInFlightReads: false,
      stalePushesAfterLinger: false,
    });
    world.serviceMoves(1, 0); // AWAITING_FUNDS → EXPIRED
    world.readNow(); // the entity reads EXPIRED; the payment decides EXPIRED
    world.serviceMoves(0, DAY); // late funds refunded (row 4)
    world.drop(0); // its webhook is lost
    expect(() => {
      world.settle();
      world.checkSettled();
    }).not.toThrow();
  });

  // Found with stalePushesAfterLinger: seed 1944516474, path "2027:8:18:18:16:13:13:12:13:13:13:13".
  it('a late push that starts a fresh entity run before the record moved does not hide the move that follows (the run looks for the registration once the record has moved)', () => {
    const world = new World({
      dropsAfterOutcome: false,
      staleInFlightReads: false,
      stalePushesAfterLinger: true,
    });
    world.serviceMoves(1, DAY); // AWAITING_FUNDS → EXPIRED
    world.readNow(); // the entity reads EXPIRED; the payment decides EXPIRED and closes
    world.passTime(ENTITY_LINGER_MS + DAY); // the entity ends after its linger
    world.deliver(0, 'once'); // the EXPIRED webhook, delayed past the linger (or any signed push): a fresh run reads EXPIRED
    world.serviceMoves(0, MINUTE); // late funds refunded (row 4): its webhook reaches the fresh run, which knows no registration
    expect(() => {
      world.settle();
      world.checkSettled();
    }).not.toThrow();
  });
});

describe('late funds refunded on an EXPIRED payment, weeks after, while Temporal does not answer the first lookups', () => {
  // Found by the property above once a lookup could go unanswered: seed -973430115, path
  // "2077:4:23:22:20:25:20:6:13:12:13:14:14" (shrunk). The push of the refund is lost; the sweep starts a fresh run.
  function history(oneLookupStands: boolean): World {
    const world = new World({
      dropsAfterOutcome: true,
      staleInFlightReads: true,
      stalePushesAfterLinger: true,
      oneLookupStands,
    });
    world.serviceMoves(3, MINUTE); // EXPIRED
    world.passTime(ENTITY_LINGER_MS + DAY); // the payment decided EXPIRED; the entity ended after its linger
    world.lookupUnanswered();
    world.serviceMoves(0, MINUTE); // late funds arrive and are refunded: EXPIRED+REFUNDED (row 4)
    world.lookupUnanswered();
    world.cancel();
    world.settle();
    world.checkSettled();
    return world;
  }
  it('was never told under the rule where the first lookup stood, answered or not', () => {
    expect(() => history(true)).toThrow(/EVERY MOVE AFTER THE OUTCOME TOLD/);
  });
  it('is told once a later lookup answers (entity-retries-registration-lookup)', () => {
    const world = history(false);
    expect(world.told.filter((t) => t.kind === 'moved').map((t) => t.key)).toEqual(['EXPIRED+REFUNDED']);
  });
});
