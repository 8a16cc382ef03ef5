// The Schedule exception of the binding is exact (docs/codec.md, "Bound to its workflow"): found in the attacker's
// review, the run pattern took any text before `-<RFC 3339 time>`, so an ID was at once a run of one Schedule and
// the action ID of another (`schedule:a-<t1>` is a run of `a` and the action of Schedule `a-<t1>`), and IDs that only
// look like runs (`schedule:a-<t1>-<t2>`, `schedule:a-<t1>-<t3>`) shared payloads. Now a Schedule ID is 1-200 of
// A-Z a-z 0-9 . _ : - (a letter or digit first) and never ends in `-<time>`; its action ID is `schedule:<id>` and its
// runs `schedule:<id>-<time>`: every ID is the action of one Schedule, a run of one, or neither, and a payload bound
// to one workflow ID decodes in that ID and its Schedule's IDs only. The oracle below is independent of
// src/codec/schedule-binding.ts. Counts: 3,000 + 1,000 cases.
import fc from 'fast-check';
import { defaultPayloadConverter, type SerializationContext } from '@temporalio/common';
import { CodecError, EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { scheduleActionWorkflowId } from '../../src/codec/schedule-binding';

const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('schedule-exact')));
const wf = (workflowId: string): SerializationContext => ({
  type: 'workflow',
  namespace: 'default',
  workflowId,
});

async function outcome(bound: string, readIn: string): Promise<string> {
  try {
    const [sealed] = await codec.encode([defaultPayloadConverter.toPayload({ arg: 1 })], wf(bound));
    await codec.decode([sealed!], wf(readIn));
    return 'read';
  } catch (e) {
    return e instanceof CodecError ? e.type : String(e);
  }
}

/** Independent oracle: the Schedule an ID belongs to (as action or run), or null. */
function scheduleOfId(id: string): string | null {
  if (!id.startsWith('schedule:')) return null;
  const rest = id.slice('schedule:'.length);
  const endsInTime = (s: string) => /^-\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(s.slice(-21));
  const validId = (s: string) =>
    s.length >= 1 &&
    s.length <= 200 &&
    /[A-Za-z0-9]/.test(s[0]!) &&
    [...s].every((ch) => /^[A-Za-z0-9._:-]$/.test(ch)) &&
    !endsInTime(s);
  if (validId(rest)) return rest;
  const s = rest.slice(0, -21); // -YYYY-MM-DDTHH:MM:SSZ
  return endsInTime(rest) && validId(s) ? s : null;
}
const mayRead = (bound: string, readIn: string) =>
  bound === readIn || (scheduleOfId(bound) !== null && scheduleOfId(bound) === scheduleOfId(readIn));

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const time = fc
  .tuple(
    fc.integer({ min: 1970, max: 2999 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
  )
  .map(
    ([y, mo, d, h, mi, s]) =>
      `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`,
  );
/** Schedule-ish ids: valid ones, and ones with what a valid id never holds (`:`, spaces, Unicode, line breaks). */
const scheduleId = fc.oneof(
  fc.constantFrom('payment-reconcile', 'quote-refresh', 'a', 'a.b_c-d'),
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,15}$/),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom('é', 'a\r', 'a b', 'x:y', ' a', '-a', 'quote-refresh:0f8e'),
);
/** A family of IDs that look like one another's runs: s, s-t1, s-t1-t2, s-t1-t3, s-t2, and s-t1 as an id of its own. */
const lookalikes = fc
  .tuple(scheduleId, time, time, time)
  .map(([s, t1, t2, t3]) => [
    `schedule:${s}`,
    `schedule:${s}-${t1}`,
    `schedule:${s}-${t2}`,
    `schedule:${s}-${t1}-${t2}`,
    `schedule:${s}-${t1}-${t3}`,
    `schedule:${s}-${t1}-${t2}-${t3}`,
    `schedule:${s}-${t1}\n`,
    `${s}-${t1}`,
    `payment:${s}`,
    `payment:${s}-${t1}`,
  ]);

it('a payload bound to one ID decodes there and in its own Schedule’s IDs only, never in IDs that look like runs of another (3,000 cases)', async () => {
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(
      lookalikes.chain((ids) => fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids))),
      async ([bound, readIn]) => {
        const got = await outcome(bound, readIn);
        expect({ bound, readIn, got }).toEqual({
          bound,
          readIn,
          got: mayRead(bound, readIn) ? 'read' : 'WRONG_WORKFLOW',
        });
        if (got !== 'read') refused++;
      },
    ),
    { numRuns: 3_000 },
  );
  expect(refused).toBeGreaterThan(1_000); // not vacuous
});

it('the named cases: one Schedule’s action and runs share; run-looking IDs of a run share nothing', async () => {
  const t1 = '2026-01-01T00:00:00Z';
  const t2 = '2026-01-02T00:00:00Z';
  const t3 = '2026-01-03T00:00:00Z';
  const s = 'payment-reconcile';
  expect(await outcome(`schedule:${s}`, `schedule:${s}-${t1}`)).toBe('read');
  expect(await outcome(`schedule:${s}-${t1}`, `schedule:${s}-${t2}`)).toBe('read');
  // `schedule:<s>-<t1>` is a run of <s>, never the action of a Schedule `<s>-<t1>` with runs of its own
  expect(await outcome(`schedule:${s}-${t1}-${t2}`, `schedule:${s}-${t1}-${t3}`)).toBe('WRONG_WORKFLOW');
  expect(await outcome(`schedule:${s}-${t1}`, `schedule:${s}-${t1}-${t2}`)).toBe('WRONG_WORKFLOW');
  // no text beyond the id's characters makes a family
  expect(await outcome('schedule:é', `schedule:é-${t1}`)).toBe('WRONG_WORKFLOW');
  expect(await outcome('schedule:a\r', `schedule:a\r-${t1}`)).toBe('WRONG_WORKFLOW');
});

it('scheduleActionWorkflowId takes a Schedule ID of A-Z a-z 0-9 . _ : - not ending in -<time>, so no action ID is also a run (1,000 cases)', () => {
  expect(scheduleActionWorkflowId('payment-reconcile')).toBe('schedule:payment-reconcile');
  for (const bad of [
    '',
    'a-2026-01-01T00:00:00Z',
    'a:b-2026-01-01T00:00:00Z',
    'é',
    'a b',
    'a\n',
    '-a',
    'x'.repeat(201),
  ])
    expect(() => scheduleActionWorkflowId(bad)).toThrow(/Schedule ID/);
  fc.assert(
    fc.property(fc.string({ maxLength: 30 }), (id) => {
      let made: string | undefined;
      try {
        made = scheduleActionWorkflowId(id);
      } catch {
        made = undefined;
      }
      expect(made === undefined ? null : scheduleOfId(made)).toBe(
        scheduleOfId(`schedule:${id}`) === id ? id : null,
      );
    }),
    { numRuns: 1_000 },
  );
});
