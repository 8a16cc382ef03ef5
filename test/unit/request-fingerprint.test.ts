// The workflow-side SHA-256 (workflows/request-fingerprint.ts) must give Node's digest, byte for byte: the client
// and the payment workflow compare fingerprints.
import { createHash } from 'node:crypto';
import { canonicalJson, requestFingerprint, sha256Hex } from '../../workflows/request-fingerprint';

const bytes = (text: string) => [...Buffer.from(text, 'utf8')];
const nodeSha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('request fingerprint', () => {
  it.each([
    '',
    'abc',
    'a'.repeat(55),
    'a'.repeat(56),
    'a'.repeat(64),
    'a'.repeat(1000),
    'São Paulo → ₹ 😀 ünïcödé',
  ])('sha256Hex matches node:crypto for %j', (text) => {
    expect(sha256Hex(bytes(text))).toBe(nodeSha(text));
  });

  it('hashes the canonical JSON, UTF-8 encoded, as node:crypto does', () => {
    const request = { b: 1, a: { d: 'Zoë', c: [1, null, 'x'] }, skipped: undefined };
    expect(requestFingerprint(request)).toBe(`sha256:${nodeSha(canonicalJson(request))}`);
  });

  it('ignores key order and undefined members, and survives a JSON round trip (what the workflow receives)', () => {
    const sent = {
      paymentKey: 'k1',
      request: { source: { amount: 100, currencyCode: 'USDC' }, note: undefined },
      at: new Date(0),
    };
    const received = JSON.parse(JSON.stringify(sent)) as unknown;
    const reordered = {
      request: { source: { currencyCode: 'USDC', amount: 100 } },
      at: new Date(0).toISOString(),
      paymentKey: 'k1',
    };
    expect(requestFingerprint(received)).toBe(requestFingerprint(sent));
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(sent));
    expect(requestFingerprint({ ...sent, paymentKey: 'k2' })).not.toBe(requestFingerprint(sent));
  });
});
