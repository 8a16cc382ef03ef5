// A mistaken key set never prints a key (SECURITY.md, "Secrets"): the messages of XBORDER_CODEC_KEYS and
// XBORDER_NEXUS_CALLER_KEYS name only the position of what is wrong (`keys[<n>]`, `endpoint [<n>]`) and the rule,
// never a record key or a value. The likely mistake, a key id and its key swapped (`{"keys":{"<base64 key>":"c1"}}`),
// used to put the whole key in the message (zod's issue path holds the record's key), and a key given where an
// endpoint name goes printed its first 40 characters.
import { randomBytes } from 'node:crypto';
import { parseCodecKeys } from '../../src/codec/keys';
import { parseNexusCallerKeys } from '../../src/codec/nexus-caller-keys';

// made at run time: a committed key-looking value is refused by the known-secret scan (test/unit/known-secrets.test.ts)
const KEY = randomBytes(32).toString('base64');
const OTHER = randomBytes(32).toString('base64');
const XBORDER = { current: 'x1', keys: { x1: OTHER } };

/** The message of what `run` throws; fails the test when it does not throw. */
function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

/** No piece of the key (8 characters or more, from anywhere in it) is in the message. */
function expectNoKeyIn(message: string): void {
  for (let i = 0; i + 8 <= KEY.length; i++) expect(message).not.toContain(KEY.slice(i, i + 8));
}

describe('XBORDER_CODEC_KEYS with a key id and its key swapped', () => {
  it('names the position and the rule, not the key', () => {
    const message = messageOf(() =>
      parseCodecKeys(JSON.stringify({ current: 'c1', keys: { [KEY]: 'c1' } }), 'XBORDER_CODEC_KEYS'),
    );
    expectNoKeyIn(message);
    expect(message).toContain('XBORDER_CODEC_KEYS');
    expect(message).toContain('keys[0]');
  });

  it('counts the position among the listed keys', () => {
    const message = messageOf(() =>
      parseCodecKeys(
        JSON.stringify({ current: 'c1', keys: { c1: OTHER, [KEY]: 'c2' } }),
        'XBORDER_CODEC_KEYS',
      ),
    );
    expectNoKeyIn(message);
    expect(message).toContain('keys[1]');
    expect(message).not.toContain('c2');
  });

  it('a key given as "current" is not printed either', () => {
    const message = messageOf(() =>
      parseCodecKeys(JSON.stringify({ current: KEY, keys: { c1: OTHER } }), 'XBORDER_CODEC_KEYS'),
    );
    expectNoKeyIn(message);
    expect(message).toContain('current');
  });
});

describe('XBORDER_NEXUS_CALLER_KEYS with a key where an id or an endpoint goes', () => {
  it.each([
    ['a key id and its key swapped', { shop: { current: 'c1', keys: { [KEY]: 'c1' } } }, 'keys[0]'],
    ['a key as "current"', { shop: { current: KEY, keys: { c1: KEY } } }, 'current'],
    ['a key as the endpoint name', { [KEY]: { current: 'c1', keys: { c1: KEY } } }, 'endpoint [0]'],
    [
      'a key as the second endpoint name',
      { shop: { current: 'c1', keys: { c1: KEY } }, [KEY]: { current: 'c2', keys: { c2: KEY } } },
      'endpoint [1]',
    ],
  ])('%s: the position and the rule, not the key', (_, value, position) => {
    const message = messageOf(() => parseNexusCallerKeys(JSON.stringify(value), XBORDER));
    expectNoKeyIn(message);
    expect(message).toContain('XBORDER_NEXUS_CALLER_KEYS');
    expect(message).toContain(position);
  });
});
