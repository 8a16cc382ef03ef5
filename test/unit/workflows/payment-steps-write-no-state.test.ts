// The payment's steps change its state only through the state's named transitions (workflows/README.md: state,
// handlers, steps): no file under workflows/payment/steps/ nor workflow.ts assigns to a field of the state, bumps
// one, or changes one of its collections or its cancel's decision in place. The compiler refuses most of it (the
// fields are private or read-only from outside); this catches a cast or a new field left writable.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { STATE_WRITES, writesIn, type StateWrite } from '../../support/state-writes';

const PAYMENT_DIR = path.resolve(__dirname, '../../../workflows/payment');
const FILES = [
  ...readdirSync(path.join(PAYMENT_DIR, 'steps'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `steps/${f}`),
  'workflow.ts',
];

/** A write to `state.<field>` (or deeper), in any of its forms: the shared ones and this state's own. */
const WRITES: StateWrite[] = [
  ...STATE_WRITES,
  // a cancel read into a local (`const asked = state.cancel`) and decided in place
  { what: 'cancel decided in place', pattern: /\.decision\s*=(?![=>])/ },
];

describe("the payment's steps and workflow.ts", () => {
  it('are all read (the walk finds the steps)', () => {
    expect(FILES).toEqual(expect.arrayContaining(['steps/create.ts', 'steps/follow.ts', 'workflow.ts']));
  });

  it("never write the state's fields: every change is a named transition of the state", () => {
    expect(FILES.flatMap((file) => writesIn(PAYMENT_DIR, file, WRITES))).toEqual([]);
  });

  it('would see each form of write (the patterns are not blind)', () => {
    const seen = (line: string) => WRITES.some(({ pattern }) => pattern.test(line));
    for (const line of [
      'state.activeId = p.id;',
      'state.stillMovingSince ??= now;',
      'const n = known ?? ++state.requotes;',
      'state.requotes += 1;',
      '[state.expiredOf, state.expiredSince] = [p.id, now];',
      'state.quoteExpiryReconciled.add(p.id);',
      'state.cancelReads.set(next.id, now);',
      "asked.decision = 'ACCEPTED';",
    ])
      expect([line, seen(line)]).toEqual([line, true]);
    for (const line of [
      "state.phase === 'QUOTE_EXPIRED'",
      'state.note(x)',
      'await condition(() => !state.requoting);',
    ])
      expect([line, seen(line)]).toEqual([line, false]);
  });
});
