// The codec server's bounds (SECURITY.md, "Codec server"): a connection cap, a deadline for headers and body, a
// memory budget for every request's body together, and an oversized declared body refused before it is read. Each
// over-the-bound case is driven with raw sockets (fetch would not hold a body half-sent).
import net from 'node:net';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const TOKEN = generatedToken();
const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('bounds')));
const servers: CodecServer[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await s.close();
});

async function server(options: {
  maxConnections?: number;
  bodyTimeoutMs?: number;
  maxBodyBytes?: number;
  maxBufferedBytes?: number;
}) {
  const s = await startCodecServer({ codecs: [codec], tokens: [TOKEN], ...options });
  servers.push(s);
  return s;
}

/** A raw connection; resolves with what the server wrote once it closes (or '' when still open after `waitMs`). */
function connect(url: string): { socket: net.Socket; closed: (waitMs: number) => Promise<string | null> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  sockets.push(socket);
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => undefined);
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return {
    socket,
    closed: (waitMs) => Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), waitMs))]),
  };
}
const head = (length: number) =>
  `POST /${TOKEN}/decode HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

it('closes connections over the cap at once, and serves again once they are gone', async () => {
  const s = await server({ maxConnections: 4 });
  const open = Array.from({ length: 4 }, () => connect(s.url));
  await new Promise((r) => setTimeout(r, 200));
  const over = connect(s.url);
  expect(await over.closed(3_000)).toBe('');
  for (const o of open) expect(await o.closed(50)).toBeNull(); // the first four are still open
  for (const o of open) o.socket.destroy();
  await new Promise((r) => setTimeout(r, 200));
  const answer = await fetch(`${s.url}/decode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: '{"payloads":[]}',
  });
  expect(answer.status).toBe(200);
});

it('closes a connection whose body does not arrive within the deadline', async () => {
  const s = await server({ bodyTimeoutMs: 500 });
  const slow = connect(s.url);
  slow.socket.write(`${head(100)}{"payloads":`);
  const started = Date.now();
  const written = await slow.closed(5_000);
  expect(written).not.toBeNull();
  expect(Date.now() - started).toBeLessThan(4_000);
});

it('refuses a declared body over the limit at once, without reading it (413, connection closed)', async () => {
  const s = await server({ maxBodyBytes: 1_000 });
  const big = connect(s.url);
  big.socket.write(head(5_000_000));
  const written = await big.closed(3_000);
  expect(written).toMatch(/^HTTP\/1\.1 413/);
});

it('answers 503 when the bodies in memory together would pass the budget, and frees it when they end', async () => {
  const s = await server({ maxBodyBytes: 1_000, maxBufferedBytes: 1_500 });
  const first = connect(s.url);
  first.socket.write(`${head(900)}${' '.repeat(800)}`);
  await new Promise((r) => setTimeout(r, 300));
  const second = connect(s.url);
  second.socket.write(`${head(900)}${' '.repeat(800)}`);
  expect(await second.closed(3_000)).toMatch(/^HTTP\/1\.1 503/);
  first.socket.destroy();
  await new Promise((r) => setTimeout(r, 300));
  const answer = await fetch(`${s.url}/decode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ payloads: [] }) + ' '.repeat(800),
  });
  expect(answer.status).toBe(200);
});
