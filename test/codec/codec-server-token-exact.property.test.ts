// The codec server's token check is exact (SECURITY.md, "Codec server"): a credential is accepted only when it IS a
// configured token — never the token with a suffix or a prefix, another case, a cut, a look-alike, a non-breaking
// space or other Unicode white space around it. Header form (`Authorization: Bearer <token>`; HTTP itself strips
// spaces and tabs around a header value) and path form (`/<token>/decode`, %-decoded). Oracle: string equality after
// exactly what HTTP strips. Counts: 1,000 header cases + 1,000 path cases.
import fc from 'fast-check';
import http from 'node:http';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const TOKEN = generatedToken();
let server: CodecServer;
beforeAll(async () => {
  server = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(generateCodecKeys('exact')))],
    tokens: [TOKEN, generatedToken()],
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
const candidate = fc.oneof(
  fc.constant(TOKEN),
  around.map((s) => TOKEN + s),
  around.map((s) => s + TOKEN),
  fc.tuple(around, around).map(([a, b]) => a + TOKEN + b),
  fc.nat({ max: TOKEN.length - 1 }).map((n) => TOKEN.slice(0, n)),
  fc.nat({ max: TOKEN.length - 1 }).map((n) => TOKEN.slice(n + 1)),
  fc.constant(flipCase(TOKEN)),
  fc
    .nat({ max: TOKEN.length - 1 })
    .map((i) => TOKEN.slice(0, i) + (TOKEN[i] === 'x' ? 'y' : 'x') + TOKEN.slice(i + 1)),
  fc.constant(`${TOKEN},${TOKEN}`),
  fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);
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
