import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_TOKEN_HEADER, DEFAULT_API_KEY } from '../../src/sandbox';
import { generatedApiKey } from '../support/secrets';

describe('npm run sandbox (src/sandbox/main.ts)', () => {
  it('starts from flags, answers on the printed address with the given key, and stops on SIGTERM', async () => {
    const root = join(__dirname, '..', '..');
    const apiKey = generatedApiKey();
    const child = spawn(
      join(root, 'node_modules', '.bin', 'tsx'),
      [
        join(root, 'src', 'sandbox', 'main.ts'),
        '--port',
        '0',
        '--api-key',
        apiKey,
        '--as-of',
        '2026-05-01T00:00:00Z',
        '--demo-data',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /listening on (http:\/\/\S+?) /.exec(out);
          if (m && /generated secrets/.test(out)) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/v1/customers/cus_demo_individual`, {
        headers: { 'x-api-key': apiKey },
      });
      expect(res.status).toBe(200);
      expect(
        (
          await fetch(`${url}/v1/customers/cus_demo_individual`, {
            headers: { 'x-api-key': DEFAULT_API_KEY },
          })
        ).status,
      ).toBe(401);
      // No secret on stdout: the generated ones are in a file only this user reads, and the log says where.
      const secretsFile = /generated secrets \(webhook secret, control token\) in (\S+) \(mode 0600\)/.exec(
        out,
      )?.[1];
      expect(secretsFile).toBeDefined();
      expect(statSync(secretsFile!).mode & 0o777).toBe(0o600);
      const secrets = JSON.parse(readFileSync(secretsFile!, 'utf8')) as {
        webhookSecret: string;
        controlToken: string;
      };
      for (const secret of [apiKey, secrets.webhookSecret, secrets.controlToken])
        expect(out).not.toContain(secret);
      // The control routes need the control token.
      expect((await fetch(`${url}/sandbox/clock`)).status).toBe(401);
      const clock = (await (
        await fetch(`${url}/sandbox/clock`, { headers: { [CONTROL_TOKEN_HEADER]: secrets.controlToken } })
      ).json()) as { now: string };
      expect(clock.now.startsWith('2026-05-01')).toBe(true);
      await until(() => /GET \/v1\/customers\/cus_demo_individual 401/.test(out)); // one log line per request
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('exits 2 with a message on a bad flag', async () => {
    const root = join(__dirname, '..', '..');
    const child = spawn(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, 'src', 'sandbox', 'main.ts'), '--port', 'abc'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be 0..65535');
  });
});

async function until(probe: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
