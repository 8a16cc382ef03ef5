// The sandbox's control routes (webhook secret, faults, fund, clock, …) hand out the secret that signs webhooks and
// move money and time: whoever reaches the port must also hold the control token (docs/sandbox.md, "Control API").
import { CONTROL_TOKEN_HEADER } from '../../src/sandbox';
import { generatedToken } from '../support/secrets';
import { type Running, sandbox } from './harness';

const running: Running[] = [];
afterAll(async () => {
  for (const sb of running) await sb.close();
});
async function start(options: Parameters<typeof sandbox>[0] = {}): Promise<Running> {
  const sb = await sandbox(options);
  running.push(sb);
  return sb;
}
const call = (
  sb: Running,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
) =>
  fetch(`${sb.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('control routes', () => {
  it('refuse a caller without the control token, or with a wrong one, before doing anything', async () => {
    const sb = await start();
    const before = sb.clock.now().getTime();
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/sandbox/webhook-secret'],
      ['POST', '/sandbox/faults', { route: 'POST /v1/payments', status: 500, count: 1 }],
      ['DELETE', '/sandbox/faults'],
      ['POST', '/sandbox/payments/pay_x/fund', {}],
      ['POST', '/sandbox/clock', { advance: 'P1D' }],
      ['GET', '/sandbox/webhooks'],
      ['POST', '/sandbox/reset'],
    ];
    for (const [method, path, body] of routes) {
      for (const headers of [{}, { [CONTROL_TOKEN_HEADER]: generatedToken() }] as Array<
        Record<string, string>
      >) {
        const res = await call(sb, method, path, headers, body);
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
        expect(await res.text()).not.toContain(sb.webhookSecret);
      }
    }
    expect(sb.clock.now().getTime() - before).toBeLessThan(3_600_000); // real time only: the P1D advance was refused
    expect(sb.state.faults.list()).toEqual([]);
  });

  it('answer the holder of the token; health and the OpenAPI document stay open', async () => {
    const sb = await start();
    const res = await call(sb, 'GET', '/sandbox/webhook-secret', sb.controlHeaders);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { secret: string }).secret).toBe(sb.webhookSecret);
    expect((await call(sb, 'GET', '/sandbox/health')).status).toBe(200);
    expect((await call(sb, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('use the given token, or one generated per run', async () => {
    const token = generatedToken();
    const given = await start({ controlToken: token });
    expect(given.controlToken).toBe(token);
    expect((await call(given, 'GET', '/sandbox/clock', { [CONTROL_TOKEN_HEADER]: token })).status).toBe(200);
    const [a, b] = [await start(), await start()];
    expect(a.controlToken).not.toBe(b.controlToken);
    expect(a.controlToken.length).toBeGreaterThanOrEqual(32);
  });
});
