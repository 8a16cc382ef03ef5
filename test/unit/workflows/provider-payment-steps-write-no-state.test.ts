// The providerPayment entity's steps change its state only through the state's named transitions
// (workflows/README.md: state, handlers, steps; workflows/provider-payment/facts.ts): no file of the entity that takes
// its state — steps/, workflow.ts, quiet-reads.ts, any new one — but the state's own (facts.ts, state.ts: the
// transitions and the handlers' bodies) assigns to a field of it, bumps one, changes one of its collections, or writes
// an entry of its events registrations in place. The compiler refuses most of it (the fields are protected, read
// through read-only getters); this catches a cast or a new field left writable.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { STATE_WRITES, writesIn, type StateWrite } from '../../support/state-writes';

const ENTITY_DIR = path.resolve(__dirname, '../../../workflows/provider-payment');
/** The files that own the state: the only ones that may write it. */
const OWNERS = ['facts.ts', 'state.ts'];
const FILES = [
  ...readdirSync(path.join(ENTITY_DIR, 'steps'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `steps/${f}`),
  ...readdirSync(ENTITY_DIR).filter(
    (f) =>
      f.endsWith('.ts') &&
      !OWNERS.includes(f) &&
      readFileSync(path.join(ENTITY_DIR, f), 'utf8').includes('ProviderPaymentState'),
  ),
];

/** A write to `state.<field>` (or deeper), in any of its forms: the shared ones and this state's own. */
const WRITES: StateWrite[] = [
  ...STATE_WRITES,
  // an events registration read into a local (`for (const [s, events] of state.eventsFor)`) and written in place
  {
    what: 'events registration written in place',
    pattern: /\.(told|keyed|sentKey|readByIt)\s*(=(?![=>])|\?\?=|\|\|=|&&=)/,
  },
];

describe("the providerPayment entity's steps and workflow.ts", () => {
  it('are all read (the walk finds the steps, workflow.ts and the other files that take the state)', () => {
    expect(FILES).toEqual(
      expect.arrayContaining([
        'steps/announce-late.ts',
        'steps/forward.ts',
        'steps/reconcile.ts',
        'workflow.ts',
        'quiet-reads.ts',
      ]),
    );
    expect(FILES).not.toEqual(expect.arrayContaining(['state.ts']));
  });

  it("never write the state's fields: every change is a named transition of the state", () => {
    expect(FILES.flatMap((file) => writesIn(ENTITY_DIR, file, WRITES))).toEqual([]);
  });

  it('would see each form of write (the patterns are not blind)', () => {
    const seen = (line: string) => WRITES.some(({ pattern }) => pattern.test(line));
    for (const line of [
      'state.lastHeardAt = Date.now();',
      'state.confirmNotBefore = state.judge(read, judging) ? 0 : Date.now() + CONFIRM_RETRY_MS;',
      'state.terminalSince ??= now;',
      'state.quietReads++;',
      '++state.registrationLookups;',
      'state.registrationLookups -= 1;',
      '[state.registrationLookups, state.registrationNotBefore] = [1, now];',
      'state.eventsFor.set(subscriber, { ...events, keyed: true });',
      'state.forwarded.set(subscriber, sendingVersion);',
      'state.subscribers.delete(subscriber);',
      'state.statusHistory.push(entry);',
      'events.told = key;',
      'events.keyed = true;',
    ])
      expect([line, seen(line)]).toEqual([line, true]);
    for (const line of [
      'if (state.unconfirmed.length > 0 && Date.now() >= state.confirmNotBefore)',
      'const had = state.forwarded.get(subscriber);',
      'state.quietReadTaken();',
      'wakeAt = state.lingerFrom(now) + lingerMs;',
      'if (events.told === key) continue;',
      'const woken = () => state.version !== version;',
    ])
      expect([line, seen(line)]).toEqual([line, false]);
  });
});
