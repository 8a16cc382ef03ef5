// Benchmark of the sandbox (not a test): requests/s of GET /v1/payments/:id and POST /v1/payments on loopback.
// Targets: ≥ 2,000 GET/s and ≥ 500 POST/s on a 2-core machine. The sandbox runs in its own process
// (as `npm run sandbox` would), quiet and without rate limit, so the load generator does not share its event loop.
//
//   npm run bench:sandbox [-- --duration 10 --connections 20]
import { spawn } from 'node:child_process';
import { join } from 'node:path';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
// autocannon ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

const API_KEY = 'sk_bench';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function startSandboxProcess(): Promise<{ url: string; stop: () => void }> {
  const tsx = join(__dirname, '..', 'node_modules', '.bin', 'tsx');
  const child = spawn(
    tsx,
    [
      join(__dirname, '..', 'src', 'sandbox', 'main.ts'),
      '--port',
      '0',
      '--quiet',
      '--rate-limit',
      'off',
      '--demo-data',
      '--api-key',
      API_KEY,
      '--as-of',
      '2026-04-01T00:00:00Z',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+?) /.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const duration = arg('duration', 10);
  const connections = arg('connections', 20);
  const { url, stop } = await startSandboxProcess();
  try {
    const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
    const paymentBody = JSON.stringify({
      source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xbench' },
      destination: { currencyCode: 'USD', rail: 'ACH', accountId: 'acc_demo_usd_bank' },
      paymentReason: 'PURCHASE_OF_GOODS',
    });
    const created = await fetch(`${url}/v1/payments`, {
      method: 'POST',
      headers: { ...headers, 'x-idempotency-key': 'bench-seed' },
      body: paymentBody,
    });
    if (created.status !== 201) throw new Error(`seed payment: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };

    const get = await autocannon({
      url,
      connections,
      duration,
      headers,
      requests: [{ method: 'GET', path: `/v1/payments/${id}` }],
    });
    let n = 0;
    const post = await autocannon({
      url,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/v1/payments',
          body: paymentBody,
          setupRequest: (req) => ({
            ...req,
            headers: { ...headers, 'x-idempotency-key': `bench-${process.pid}-${++n}` },
          }),
        },
      ],
    });
    const line = (name: string, r: AutocannonResult, target: number) =>
      `${name.padEnd(24)} ${r.requests.average.toFixed(0).padStart(6)} req/s  (total ${r.requests.total}, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors})  target ≥ ${target}: ${r.requests.average >= target && r.non2xx === 0 ? 'met' : 'NOT MET'}`;
    console.log(`sandbox benchmark, ${connections} connections, ${duration} s each, loopback ${url}`);
    console.log(line('GET /v1/payments/:id', get, 2000));
    console.log(line('POST /v1/payments', post, 500));
    if (get.non2xx > 0 || post.non2xx > 0) process.exitCode = 1;
  } finally {
    stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
