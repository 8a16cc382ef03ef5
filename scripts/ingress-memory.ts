// Measures the Node ingress's memory under slow large uploads (SECURITY.md, "The webhook ingress"):
//   npx tsx scripts/ingress-memory.ts [--uploads 60] [--mib 16] [--seconds 20] [--chunked]
// Starts the ingress (default limits, a router that records instead of signalling Temporal) in a child process,
// keeps `--uploads` connections each sending a 16 MiB body slowly with plausible signature headers (fresh timestamp,
// a v1 signature of the right length, wrong HMAC) — reopening one as soon as the ingress closes it — and posts a
// correctly signed webhook every 250 ms. Prints the child's RSS before, its peak (VmHWM) and the answers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signWebhook } from '../src/provider/webhook-signature';

const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '60' },
    mib: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '20' },
    chunked: { type: 'boolean', default: false },
    child: { type: 'boolean', default: false },
  },
});

const MiB = 1024 * 1024;

async function child(): Promise<void> {
  const { createWebhookHandler, startIngressServer } = await import('../src/ingress');
  const secret = process.env.XBORDER_MEASURE_SECRET!;
  let delivered = 0;
  const server = await startIngressServer({
    handler: createWebhookHandler({
      secrets: [secret],
      router: {
        route: (event) => ({
          workflowId: `provider-payment:${String(event.data.id)}`,
          deliver: async () => void delivered++,
        }),
      },
    }),
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, webhookUrl: server.webhookUrl })}\n`);
  process.on('SIGTERM', () => {
    process.stderr.write(`delivered ${delivered}\n`);
    void server.close();
    process.exit(0);
  });
}

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function main(): Promise<void> {
  if (values.child) return child();
  const uploads = Number(values.uploads);
  const bodyBytes = Number(values.mib) * MiB;
  const seconds = Number(values.seconds);
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const ingress = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'ingress-memory.ts'), '--child'],
    {
      env: { ...process.env, XBORDER_MEASURE_SECRET: secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const { url, webhookUrl } = await new Promise<{ url: string; webhookUrl: string }>((resolve) =>
    ingress.stdout.once('data', (d: Buffer) =>
      resolve(JSON.parse(d.toString()) as { url: string; webhookUrl: string }),
    ),
  );
  const port = Number(new URL(url).port);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = rssOf(ingress.pid!);

  let stopping = false;
  const closedWith = new Map<string, number>();
  let opened = 0;
  const open = (): void => {
    if (stopping) return;
    opened++;
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'closed without an answer';
      closedWith.set(status, (closedWith.get(status) ?? 0) + 1);
      setTimeout(open, 50); // the attacker comes back
    });
    socket.on('connect', () => {
      const at = Math.floor(Date.now() / 1000);
      const head = [
        'POST /webhooks HTTP/1.1',
        'host: 127.0.0.1',
        'content-type: application/json',
        `webhook-id: msg_${randomBytes(8).toString('hex')}`,
        `webhook-timestamp: ${at}`,
        `webhook-signature: v1,${randomBytes(32).toString('base64')}`,
        values.chunked ? 'transfer-encoding: chunked' : `content-length: ${bodyBytes}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      // slow: 256 KiB every 200 ms (1.25 MiB/s), so a 16 MiB body takes about 13 s
      const piece = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      timer = setInterval(() => {
        if (sent >= bodyBytes || socket.destroyed) return clearInterval(timer);
        if (values.chunked) socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        if (values.chunked) socket.write('\r\n');
        sent += piece.length;
      }, 200);
    });
  };
  for (let i = 0; i < uploads; i++) open();

  const signedAnswers = new Map<number, number>();
  const latencies: number[] = [];
  let peakRss = before.rss;
  const deadline = Date.now() + seconds * 1_000;
  while (Date.now() < deadline) {
    const id = `msg_${randomBytes(6).toString('hex')}`;
    const at = Math.floor(Date.now() / 1000);
    const raw = JSON.stringify({
      id: `evt_${id}`,
      type: 'payment.updated',
      createdAt: new Date().toISOString(),
      data: { id: 'pay_1', status: 'PENDING' },
    });
    const began = Date.now();
    const status = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(secret, id, at, raw),
      },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    })
      .then((r) => r.status)
      .catch(() => 0);
    latencies.push(Date.now() - began);
    signedAnswers.set(status, (signedAnswers.get(status) ?? 0) + 1);
    peakRss = Math.max(peakRss, rssOf(ingress.pid!).rss);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stopping = true;
  const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
  const after = rssOf(ingress.pid!);
  ingress.kill('SIGTERM');
  latencies.sort((a, b) => a - b);
  const mib = (n: number) => (n / MiB).toFixed(0);
  console.log(
    `uploads: ${uploads} kept open, ${opened} opened in ${seconds} s, ${mib(bodyBytes)} MiB each, ${values.chunked ? 'chunked' : 'content-length'}`,
  );
  console.log(
    `ingress RSS: ${mib(before.rss)} MiB before, ${mib(peakRss)} MiB highest sampled, ${mib(after.peak)} MiB peak (VmHWM); growth ${mib(after.peak - before.rss)} MiB`,
  );
  console.log(
    `upload connections closed by the ingress with: ${JSON.stringify(Object.fromEntries(closedWith))}`,
  );
  console.log(
    `signed webhooks meanwhile: ${JSON.stringify(Object.fromEntries(signedAnswers))} (status: count; 0 = no answer), p50 ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies.at(-1)} ms`,
  );
  console.log(
    `ingress /health: buffered ${String(health.buffered)} bytes, overBudget ${String(health.overBudget)}, counters ${JSON.stringify(health.counters)}`,
  );
  process.exit(0);
}

void main();
