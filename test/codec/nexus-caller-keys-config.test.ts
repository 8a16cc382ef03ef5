// XBORDER_NEXUS_CALLER_KEYS(_FILE): each Nexus caller's own key set, read by the worker at start. A set that would
// let a caller open xborder's payloads (a shared key id, the same key material) or another caller's is refused at
// start, a ConfigurationError (exit code 2 from `xborder worker`: src/cli/cli.ts) naming the variable and the rule,
// never a key (docs/codec.md, "Nexus callers").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCodecKeys, nexusCallerKeysFromEnv, workerCodecConfigFromEnv } from '../../src/codec';

const xborder = generateCodecKeys('xborder-k1');
const shop = generateCodecKeys('shop-k1');
const env = (callers: unknown) => ({
  XBORDER_CODEC_KEYS: JSON.stringify(xborder),
  XBORDER_NEXUS_CALLER_KEYS: typeof callers === 'string' ? callers : JSON.stringify(callers),
});

function refusedWith(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('ConfigurationError');
    expect((error as Error).message).toContain('XBORDER_NEXUS_CALLER_KEYS');
    return error as Error;
  }
  throw new Error('expected a refusal');
}

it('unset: no callers keyring (every caller holds xborder keys, as before)', () => {
  expect(nexusCallerKeysFromEnv({}, xborder)).toBeUndefined();
  expect(
    workerCodecConfigFromEnv({ XBORDER_CODEC_KEYS: JSON.stringify(xborder) }).options.nexusCallers,
  ).toBeUndefined();
});

it('maps each endpoint to its key set, from the variable or from its _FILE', () => {
  const ring = nexusCallerKeysFromEnv(env({ 'xborder-shop': shop }), xborder)!;
  expect(ring.endpoints).toEqual(['xborder-shop']);
  expect(ring.forEndpoint('xborder-shop')).toBeDefined();
  expect(ring.forEndpoint('xborder-other')).toBeUndefined();
  const file = join(mkdtempSync(join(tmpdir(), 'nexus-keys-')), 'callers.json');
  writeFileSync(file, JSON.stringify({ 'xborder-shop': shop }));
  const fromFile = workerCodecConfigFromEnv({
    XBORDER_CODEC_KEYS: JSON.stringify(xborder),
    XBORDER_NEXUS_CALLER_KEYS_FILE: file,
  });
  expect(fromFile.options.nexusCallers?.endpoints).toEqual(['xborder-shop']);
});

it("refuses a caller key id that is one of xborder's or another caller's, naming the rule and never a key", () => {
  const clash = { current: 'xborder-k1', keys: { 'xborder-k1': shop.keys['shop-k1']! } };
  const error = refusedWith(() => nexusCallerKeysFromEnv(env({ 'xborder-shop': clash }), xborder));
  expect(error.message).toMatch(/key id "xborder-k1" is also used by xborder's XBORDER_CODEC_KEYS/);
  expect(error.message).not.toContain(shop.keys['shop-k1']!);
  const twice = refusedWith(() =>
    nexusCallerKeysFromEnv(env({ 'xborder-shop': shop, 'xborder-other': shop }), xborder),
  );
  expect(twice.message).toMatch(/"shop-k1" is also used by endpoint "xborder-shop"/);
});

it("refuses xborder's key material under another id (the caller would hold xborder's key)", () => {
  const same = { current: 'shop-k9', keys: { 'shop-k9': xborder.keys['xborder-k1']! } };
  const error = refusedWith(() => nexusCallerKeysFromEnv(env({ 'xborder-shop': same }), xborder));
  expect(error.message).toMatch(/same key as one of xborder's XBORDER_CODEC_KEYS/);
  expect(error.message).not.toContain(xborder.keys['xborder-k1']!);
});

it('refuses what is not a key set by endpoint, and caller keys without xborder keys', () => {
  refusedWith(() => nexusCallerKeysFromEnv(env('not json'), xborder));
  refusedWith(() => nexusCallerKeysFromEnv(env({}), xborder));
  refusedWith(() => nexusCallerKeysFromEnv(env({ 'bad name!': shop }), xborder));
  refusedWith(() => nexusCallerKeysFromEnv(env({ 'xborder-shop': { current: 'x', keys: {} } }), xborder));
  refusedWith(() =>
    workerCodecConfigFromEnv({
      XBORDER_CODEC: 'disabled',
      XBORDER_NEXUS_CALLER_KEYS: JSON.stringify({ s: shop }),
    }),
  );
  // both forms at once
  refusedWith(() =>
    nexusCallerKeysFromEnv(
      { ...env({ 'xborder-shop': shop }), XBORDER_NEXUS_CALLER_KEYS_FILE: '/nonexistent' },
      xborder,
    ),
  );
});
