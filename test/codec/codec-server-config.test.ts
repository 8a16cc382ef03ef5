// The codec server's configuration (src/codec/server-config.ts): encode tokens apart from the decode tokens, off unless set.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCodecKeys } from '../../src/codec';
import { codecServerConfigFromEnv } from '../../src/codec/server-config';
import { generatedToken } from '../support/secrets';

const base = () => ({
  XBORDER_CODEC_KEYS: JSON.stringify(generateCodecKeys('config-test')),
  XBORDER_CODEC_SERVER_TOKENS: generatedToken(),
});

it('has no encode token unless XBORDER_CODEC_SERVER_ENCODE_TOKENS (or its _FILE) is set', () => {
  expect(codecServerConfigFromEnv(base()).encodeTokens).toEqual([]);
  const [a, b] = [generatedToken(), generatedToken()];
  expect(
    codecServerConfigFromEnv({ ...base(), XBORDER_CODEC_SERVER_ENCODE_TOKENS: `${a}, ${b}` }).encodeTokens,
  ).toEqual([a, b]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'codec-config-')), 'encode-tokens');
  writeFileSync(file, `${a}\n`, { mode: 0o600 });
  expect(
    codecServerConfigFromEnv({ ...base(), XBORDER_CODEC_SERVER_ENCODE_TOKENS_FILE: file }).encodeTokens,
  ).toEqual([a]);
});

it('refuses an encode token that is weak or is also a decode token', () => {
  const env = base();
  expect(() => codecServerConfigFromEnv({ ...env, XBORDER_CODEC_SERVER_ENCODE_TOKENS: 'short' })).toThrow(
    /XBORDER_CODEC_SERVER_ENCODE_TOKENS/,
  );
  expect(() =>
    codecServerConfigFromEnv({ ...env, XBORDER_CODEC_SERVER_ENCODE_TOKENS: env.XBORDER_CODEC_SERVER_TOKENS }),
  ).toThrow(/a decode token never encodes/);
});
