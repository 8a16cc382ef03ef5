// The codec server's token check is exact (SECURITY.md, "Codec server"): a credential is accepted only when it IS a
// configured token — never the token with a suffix or a prefix, another case, a cut, a look-alike, a non-breaking
// space or other Unicode white space around it. Header form (`Authorization: Bearer <token>`; HTTP itself strips
// spaces and tabs around a header value) and path form (`/<token>/decode`, %-decoded). Oracle: string equality after
// exactly what HTTP strips. Counts: 1,000 header cases + 1,000 path cases.
// The encode route too (docs/codec.md, "The codec server"): /encode answers 200 exactly when the credential IS an encode
// token, 403 when it IS a decode token (a decode token never encodes), 401 otherwise; an encode token also decodes.
// Counts: 1,000 header cases + 1,000 path cases, candidates drawn near an encode token and near a decode token.
import fc from 'fast-check';
import http from 'node:http';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const TOKEN = generatedToken();
const ENCODE_TOKEN = generatedToken();
let server: CodecServer;
beforeAll(async () => {
  server = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(generateCodecKeys('exact')))],
    tokens: [TOKEN, generatedToken()],
    encodeTokens: [ENCODE_TOKEN, generatedToken()],
  });
});
afterAll(async () => {
  await server?.close();
});

function post(path: string, authorization?: string): Promise<number> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization === undefined ? {} : { authorization }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{"payloads":[]}');
  });
}

/** Latin-1 characters a header may carry (no controls but tab): the look-alikes and white space an attacker would try. */
const latin1 = fc.oneof(
  fc.constantFrom('\u00a0', '\u0085', ' ', '\t', '=', '.', '/', '%', 'ÿ', 'é', '0', 'A', 'a', '-', '_'),
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
);
const around = fc.array(latin1, { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
const flipCase = (s: string) =>
  [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
/** The token itself and its near misses. */
const near = (token: string) =>
  fc.oneof(
    fc.constant(token),
    around.map((s) => token + s),
    around.map((s) => s + token),
    fc.tuple(around, around).map(([a, b]) => a + token + b),
    fc.nat({ max: token.length - 1 }).map((n) => token.slice(0, n)),
    fc.nat({ max: token.length - 1 }).map((n) => token.slice(n + 1)),
    fc.constant(flipCase(token)),
    fc
      .nat({ max: token.length - 1 })
      .map((i) => token.slice(0, i) + (token[i] === 'x' ? 'y' : 'x') + token.slice(i + 1)),
    fc.constant(`${token},${token}`),
    fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  );
const candidate = near(TOKEN);
/** Near an encode token or a decode token (and their concatenation, which is neither). */
const encodeCandidate = fc.oneof(near(ENCODE_TOKEN), near(TOKEN), fc.constant(`${TOKEN}${ENCODE_TOKEN}`));
/** The oracle of /encode: what the credential IS, after what HTTP strips. */
const encodeStatus = (credential: string) =>
  credential === ENCODE_TOKEN ? 200 : credential === TOKEN ? 403 : 401;
/** What HTTP removes around a header value (optional white space: space and tab only). */
const ows = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, '');

it('header form: 200 exactly when the bearer credential is a configured token (1,000 cases)', async () => {
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(
      candidate,
      fc.constantFrom('Bearer ', 'bearer ', 'BEARER  ', 'Bearer\t'),
      async (c, scheme) => {
        const status = await post('/decode', `${scheme}${c}`);
        const exact = ows(c) === TOKEN;
        expect({ c, status }).toEqual({ c, status: exact ? 200 : 401 });
        if (exact) accepted++;
      },
    ),
    // the near-misses first, every run: Unicode white space that String.prototype.trim() would remove
    {
      numRuns: 1_000,
      examples: [
        [`${TOKEN}\u00a0`, 'Bearer '],
        [`\u00a0${TOKEN}`, 'Bearer '],
        [`${TOKEN}\u0085`, 'Bearer '],
        [`${TOKEN}x`, 'Bearer '],
      ],
    },
  );
  expect(accepted).toBeGreaterThan(20);
});

it('path form: 200 exactly when the %-decoded first segment is a configured token (1,000 cases)', async () => {
  await fc.assert(
    fc.asyncProperty(candidate, async (c) => {
      fc.pre(c !== '' && !c.includes('/'));
      const status = await post(`/${encodeURIComponent(c)}/decode`);
      expect({ c, status }).toEqual({ c, status: c === TOKEN ? 200 : 401 });
    }),
    { numRuns: 1_000 },
  );
});

it('encode route, header form: 200 exactly for an encode token, 403 exactly for a decode token, else 401 (1,000 cases)', async () => {
  const seen = { 200: 0, 403: 0 } as Record<number, number>;
  await fc.assert(
    fc.asyncProperty(
      encodeCandidate,
      fc.constantFrom('Bearer ', 'bearer ', 'Bearer\t'),
      async (c, scheme) => {
        const status = await post('/encode', `${scheme}${c}`);
        expect({ c, status }).toEqual({ c, status: encodeStatus(ows(c)) });
        seen[status] = (seen[status] ?? 0) + 1;
      },
    ),
    {
      numRuns: 1_000,
      examples: [
        [`${ENCODE_TOKEN}\u00a0`, 'Bearer '],
        [`${TOKEN}\u00a0`, 'Bearer '],
        [`${ENCODE_TOKEN}x`, 'Bearer '],
      ],
    },
  );
  expect(seen[200]).toBeGreaterThan(10);
  expect(seen[403]).toBeGreaterThan(10);
});

it('encode route, path form: 200 exactly for an encode token, 403 exactly for a decode token, else 401 (1,000 cases)', async () => {
  await fc.assert(
    fc.asyncProperty(encodeCandidate, async (c) => {
      fc.pre(c !== '' && !c.includes('/'));
      const status = await post(`/${encodeURIComponent(c)}/encode`);
      expect({ c, status }).toEqual({ c, status: encodeStatus(c) });
    }),
    { numRuns: 1_000 },
  );
});

it('an encode token decodes too (the CLI sends one credential for both), exactly', async () => {
  await fc.assert(
    fc.asyncProperty(near(ENCODE_TOKEN), async (c) => {
      const status = await post('/decode', `Bearer ${c}`);
      expect({ c, status }).toEqual({ c, status: ows(c) === ENCODE_TOKEN ? 200 : 401 });
    }),
    { numRuns: 300 },
  );
});
