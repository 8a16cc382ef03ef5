// Money truth by construction, searched for by simulation (model-based testing, after TigerBeetle's VOPR and
// FoundationDB's simulation testing). fast-check generates histories of:
// - what the service really does (service-model.ts: every transition of the spec's state machine, late funds after
//   EXPIRED refunded, refunds and bank returns after COMPLETED, failures), at any delay;
// - how it is delivered: each true change pushed once, then delivered, again under the same or a new id, in any
//   order, delayed past the entity's linger, or dropped; plus signed forgeries with any status, timestamps, amounts,
//   codes;
// - the entity's reads (started and answered apart, so anything can land in between), the payment's own reads,
//   a caller's cancel, continue-as-new of the entity;
// and checks, on the pure decision code the workflows run (world.ts):
// 1. NOTHING FROM A PUSH ALONE: every state the entity holds, the payment decides on or the backend is told equals a
//    state a read of ours returned;
// 2. OUTCOME MATCHES THE SERVICE: the decided state is one the service had, and the backend last hears the service's
//    final record;
// 3. TOLD EXACTLY ONCE, IN ORDER: no move is told twice, none before one it followed;
// 4. ENDS WITHIN THE BOUND: once the service's record has an outcome, the payment has decided after at most one more
//    read (the entity's daily read while it follows a payment, or the payment's own 6-hourly read);
// and a cancel is refused only on funds a read showed.
// A failure prints its seed and the shrunk commands; replay it with XBORDER_SIM_SEED=<seed> XBORDER_SIM_PATH=<path>.
// Longer profile: XBORDER_SIM_RUNS=100000 npx jest test/unit/simulation.
import fc from 'fast-check';
import type { Payment } from '../../../src/contract';
import { snapshot } from '../workflows/decisions/fixtures';
import { SERVICE_MOVES, START_MS } from './service-model';
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

const delay = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60 }).map((m) => m * MINUTE), fc.integer({ min: 1, max: 70 }).map((d) => d * DAY));
const stamp = fc.option(fc.integer({ min: -2, max: 80 }).map((d) => new Date(START_MS + d * DAY).toISOString()), { nil: null });

/** A signed push with anything in it. */
const forged: fc.Arbitrary<Payment> = fc
  .record({
    status: fc.constantFrom('AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED', 'CANCELLED', 'ON_HOLD'),
    lifecycle: fc.record({ sentAt: stamp, completedAt: stamp, expiredAt: stamp, refundedAt: stamp }),
    code: fc.constantFrom(null, 'FUNDS_RETURNED_BY_RECEIVING_BANK', 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED'),
    amount: fc.constantFrom(100, 1, 1_000_000),
  })
  .map(({ status, lifecycle, code, amount }) => {
    const p = snapshot(status, lifecycle, { error: code ? ({ code } as never) : null });
    return { ...p, source: { ...p.source, amount } };
  });

const commands: fc.Arbitrary<Cmd>[] = [
  fc.tuple(fc.constantFrom(...SERVICE_MOVES), delay).map(([move, ms]) => command(`service ${move} after ${ms / MINUTE} min`, (w) => w.serviceMoves(move, ms))),
  fc.tuple(fc.nat(), fc.constantFrom('once', 'sameId', 'newId') as fc.Arbitrary<'once' | 'sameId' | 'newId'>).map(([i, again]) => command(`deliver #${i} ${again}`, (w) => w.deliver(i, again))),
  fc.nat().map((i) => command(`drop #${i}`, (w) => w.drop(i))),
  forged.map((p) => command(`forge ${p.status} ${JSON.stringify(p.lifecycle)} ${JSON.stringify(p.error)} ${p.source.amount}`, (w) => w.forge(p))),
  fc.constant(command('entity read starts', (w) => w.startRead())),
  fc.constant(command('entity read answers', (w) => w.landRead())),
  fc.constant(command('payment reads', (w) => w.paymentReads())),
  fc.constant(command('cancel', (w) => w.cancel())),
  fc.constant(command('entity continues as new', (w) => w.crash())),
  fc.constantFrom(MINUTE, DAY, ENTITY_LINGER_MS + DAY).map((ms) => command(`time passes ${ms / MINUTE} min`, (w) => w.passTime(ms))),
];

function property(options: ConstructorParameters<typeof World>[0]) {
  return fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
    const world = new World(options);
    fc.modelRun(() => ({ model: {}, real: world }), cmds);
    world.settle();
    world.checkSettled();
  });
}

function params(runs: number): fc.Parameters<[Iterable<Cmd>]> {
  return { numRuns: runs, ...(SEED !== undefined ? { seed: SEED } : {}), ...(PATH ? { path: PATH } : {}), endOnFailure: false };
}

describe('simulation: money truth by construction (pure decisions of the entity and the payment)', () => {
  it(`holds the invariants over ${RUNS} generated histories (every after-outcome change delivered at least once)`, () => {
    fc.assert(property({ dropsAfterOutcome: false, staleInFlightReads: false }), params(RUNS));
  });
});
