// The "receiver outage" chaos scenario (docs/chaos.md): every payment is started with `events`, and the backend's
// event endpoint goes down mid-run, now answering 503, now gone (connection refused), then comes back. Outbound
// events must survive it (docs/outbound-events.md, "How it works"): none lost (every payment's events 1…n reach the
// receiver, its outcome's last), none delivered out of order for a payment, and all of them delivered once the
// receiver is back. The receiver dedupes on the event id, as a backend must: a redelivery is counted, not a fault.
import { isTransferEvent, type XborderEvent } from '../../src/contract';
import type { Scenario, ScenarioContext } from './scenarios';
import type { PaymentRun } from './workload';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two outages (503, then gone), each 8–12 s, 20–30 s apart: an event that met both is retried 10 s, 30 s, 70 s after
 * its first try (the delivery's schedule), so it finds the receiver back within about a minute. More outages in a
 * row would only stretch its backoff (up to 15 min between tries: docs/outbound-events.md), not lose it.
 */
async function disrupt(ctx: ScenarioContext): Promise<number> {
  const receiver = ctx.receiver!;
  let strikes = 0;
  // down from the first delivery on: the payment.created of the payments launched meanwhile meet the outage
  while (!ctx.done() && receiver.attempts === 0) await sleep(50);
  while (strikes < 2 && Date.now() < ctx.deadline) {
    const mode = strikes % 2 === 0 ? '503' : 'gone';
    await receiver.down(mode);
    strikes++;
    const ms = ctx.random.int(8_000, 12_000);
    ctx.log(`   receiver ${mode} for ${ms} ms`);
    await sleep(ms); // the outage lasts its time even when the payments are done: their events still wait
    await receiver.up();
    if (strikes < 2) await sleep(ctx.random.int(20_000, 30_000)); // the second outage comes even when the payments are done
  }
  return strikes;
}

/** The event a payment's outcome makes (payment.completed for COMPLETED …). */
const outcomeEvent = (outcome: string) => `payment.${outcome.toLowerCase()}`;

function problemsOf(runs: PaymentRun[], accepted: XborderEvent[]): { problems: string[]; waiting: number } {
  const problems: string[] = [];
  let waiting = 0;
  for (const run of runs.filter((r) => r.outcome !== null)) {
    const mine = accepted.filter((e) => e.paymentKey === run.key);
    // first acceptance of each id, in the order accepted: the receiver's view after dedupe
    const seen = new Set<string>();
    const firsts = mine.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
    const sequences = firsts.map((e) => e.sequence);
    if (sequences.some((s, i) => s !== i + 1))
      problems.push(`${run.key}: events out of order or one lost: sequences ${sequences.join(',')}`);
    if (!firsts.some((e) => e.type === outcomeEvent(run.outcome!))) waiting++;
    else {
      // After the outcome's event only a later movement of the money may come (a return or refund: spec, "States
      // and transitions"), told as payment.moved_after_outcome; anything else after it is out of place.
      const afterOutcome = firsts.slice(firsts.findIndex((e) => e.type === outcomeEvent(run.outcome!)) + 1);
      for (const late of afterOutcome.filter((e) => e.type !== 'payment.moved_after_outcome'))
        problems.push(`${run.key}: ${late.type} after its outcome's event`);
    }
  }
  return { problems, waiting };
}

export const RECEIVER_OUTAGE: Scenario = {
  name: 'receiver-outage',
  what: "the backend's event receiver answers 503 from its first delivery on, then later is gone (connection refused)",
  engines: ['dev-server'],
  eventsReceiver: true,
  disrupt,
  async check(ctx, runs) {
    const receiver = ctx.receiver!;
    // every payment's events delivered once the receiver is back: wait for the retries (at most a few minutes)
    const until = Math.min(Date.now() + 4 * 60_000, ctx.deadline);
    const payments = () => receiver.accepted.filter((e): e is XborderEvent => !isTransferEvent(e));
    let result = problemsOf(runs, payments());
    while (result.waiting > 0 && Date.now() < until) {
      await sleep(2_000);
      result = problemsOf(runs, payments());
    }
    const problems = [...result.problems];
    if (result.waiting > 0)
      problems.push(`${result.waiting} payments' outcome events never delivered (lost)`);
    if (receiver.unverified > 0) problems.push(`${receiver.unverified} deliveries failed verification`);
    // an outage no delivery met proves nothing
    if (receiver.refusedDeliveries === 0) problems.push('no delivery met the 503 outage');
    for (const p of problems) ctx.log(`   problem: ${p}`);
    const ids = payments().map((e) => e.id);
    const redelivered = ids.length - new Set(ids).size;
    return {
      problems,
      notes: `events: ${new Set(ids).size} delivered, ${redelivered} redelivered (deduped by id), ${receiver.refusedDeliveries} deliveries refused while down`,
    };
  },
};
