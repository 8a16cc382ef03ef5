// The codec's binding, property-based (fast-check): a payload bound to workflow A is read in A and refused in every
// B ≠ A (docs/codec.md, "Bound to its workflow"). B is drawn near A on purpose: A with a suffix, a prefix, a
// Schedule-like `-<RFC 3339 time>`, another case, a Unicode look-alike or normalisation, a cut, another namespace.
// The only IDs that share payloads are the runs of one Schedule (reserved action ID `schedule:<id>`), and the
// oracle below says so independently of src/codec/schedule-binding.ts. Counts: 5,000 + 2,000 + 1,000 cases.
import fc from 'fast-check';
import { defaultPayloadConverter, type SerializationContext } from '@temporalio/common';
import { CodecError, EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';

const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('binding-property')));
const wf = (workflowId: string, namespace = 'default'): SerializationContext => ({
  type: 'workflow',
  namespace,
  workflowId,
});
const sealedFor = async (id: string, namespace = 'default') =>
  (await codec.encode([defaultPayloadConverter.toPayload({ secret: 'input' })], wf(id, namespace)))[0]!;

/**
 * Independent oracle: `schedule:<x>` and `schedule:<x>-<dddd-dd-ddTdd:dd:ddZ>` are one Schedule's when <x> is a Schedule
 * ID (1-200 of A-Z a-z 0-9 . _ : -, a letter or digit first, not ending in a time: test/codec/schedule-binding-exact.property.test.ts); nothing
 * else is shared.
 */
function family(id: string): string | null {
  if (!id.startsWith('schedule:')) return null;
  const isScheduleId = (x: string) =>
    /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/.test(x) && !/-\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(x);
  const template = '-dddd-dd-ddTdd:dd:ddZ';
  const tail = id.slice(-template.length);
  const isTime =
    id.length > 'schedule:'.length + template.length &&
    [...template].every((t, i) => (t === 'd' ? tail[i]! >= '0' && tail[i]! <= '9' : tail[i] === t));
  const action = isTime ? id.slice(0, -template.length) : id;
  return isScheduleId(action.slice('schedule:'.length)) ? action : null;
}
const mayRead = (a: string, b: string) => a === b || (family(b) !== null && family(a) === family(b));

async function outcome(
  a: string,
  b: string,
  namespaceB = 'default',
): Promise<'read' | 'WRONG_WORKFLOW' | string> {
  try {
    await codec.decode([await sealedFor(a)], wf(b, namespaceB));
    return 'read';
  } catch (e) {
    return e instanceof CodecError ? e.type : String(e);
  }
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const rfc3339 = fc
  .tuple(
    fc.integer({ min: 1970, max: 2999 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
  )
  .map(
    ([y, mo, d, h, mi, s]) =>
      `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`,
  );
const key = fc.oneof(
  fc.string({ minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.uuid(),
  fc.constantFrom('order-1', 'run', 'x-run', 'Ä', 'A\u030a'),
);
const workflowA = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'payment:',
        'transfer:',
        'provider-payment:',
        'provider-customer:',
        'customer:',
        'account:',
        'payment-reconcile-run',
        'quote-refresh-run',
        '',
      ),
      key,
    )
    .map(([p, k]) => p + k),
  key.map((k) => `schedule:${k}`),
  fc.tuple(key, rfc3339).map(([k, t]) => `schedule:${k}-${t}`),
);
const LOOKALIKE: Record<string, string> = {
  a: 'а',
  e: 'е',
  o: 'о',
  p: 'р',
  c: 'с',
  x: 'х',
  ':': '：',
  '-': '‐',
};
/** B near A: mostly not A (the property is about B ≠ A; B = A is also drawn and must be read). */
const near = (a: string) =>
  fc.oneof(
    fc.constant(a),
    fc.string({ minLength: 1, maxLength: 8 }).map((s) => a + s),
    fc.string({ minLength: 1, maxLength: 8 }).map((s) => s + a),
    rfc3339.map((t) => `${a}-${t}`),
    rfc3339.map((t) => `${a}-${t}\n`),
    rfc3339.map((t) => `${a}-${t.toLowerCase()}`),
    rfc3339.map((t) => `${a}-${t.replace('Z', '+00:00')}`),
    rfc3339.map((t) => `schedule:${a}-${t}`),
    fc.constant(`schedule:${a}`),
    fc.constant(a.toUpperCase()),
    fc.constant(a.toLowerCase()),
    fc.constant(a.normalize('NFD')),
    fc.constant(a.normalize('NFKC')),
    fc.constant([...a].map((ch) => LOOKALIKE[ch] ?? ch).join('')),
    fc.nat({ max: Math.max(0, a.length - 1) }).map((n) => a.slice(0, n)),
    fc.constant(`${a} `),
    fc.constant(`${a}\u200b`),
    fc.string({ maxLength: 30 }),
  );

it('bound to A, read in B: only when B = A or both are runs of one Schedule (5,000 cases, B near A)', async () => {
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(
      workflowA.chain((a) => fc.tuple(fc.constant(a), near(a))),
      async ([a, b]) => {
        const got = await outcome(a, b);
        if (mayRead(a, b)) expect(got).toBe('read');
        else {
          expect(got).toBe('WRONG_WORKFLOW');
          refused++;
        }
      },
    ),
    { numRuns: 5_000 },
  );
  expect(refused).toBeGreaterThan(3_000); // most cases are B ≠ A: the property is not vacuous
});

it('never reads a payload of a workflow that is not a Schedule in `<its ID>-<time>` (2,000 cases)', async () => {
  const notSchedule = workflowA.filter((a) => !a.startsWith('schedule:'));
  await fc.assert(
    fc.asyncProperty(notSchedule, rfc3339, async (a, t) => {
      expect(await outcome(a, `${a}-${t}`)).toBe('WRONG_WORKFLOW');
    }),
    { numRuns: 2_000 },
  );
});

it('never reads a payload in another namespace, whatever the workflow ID (1,000 cases)', async () => {
  await fc.assert(
    fc.asyncProperty(
      workflowA,
      fc.string({ maxLength: 20 }).filter((n) => n !== 'default'),
      async (a, namespace) => {
        expect(await outcome(a, a, namespace)).toBe('WRONG_WORKFLOW');
      },
    ),
    { numRuns: 1_000 },
  );
});
