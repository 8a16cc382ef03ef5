// No process serves the codec-server token to an unauthenticated caller (SECURITY.md; docs/codec.md, "The Temporal
// UI"). The dev UI's settings answer (GET /api/v1/settings) is open to anyone on the machine: it once held the codec
// endpoint with the token in its path, and `/decode` through it showed the demo customer's personal data. The stack
// `xborder dev` runs (startLocalStack with a codec server) now gives the UI no endpoint: a person enters it in the UI's
// Codec Server settings, in their browser only. Nor is the token on any command line (`ps`).
import { readFileSync } from 'node:fs';
import type { LocalStack } from '../../src/cli/stack';
import { startTestStack } from '../e2e/stack-support';
import { generatedToken } from '../support/secrets';

jest.setTimeout(120_000);

let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.close();
});

it('the dev UI settings answer never holds the codec-server token, nor does any command line', async () => {
  const token = generatedToken();
  stack = await startTestStack({ worker: false, codecServer: { token } });
  expect(stack.temporal.reused).toBe(false);
  // The UI server answers its settings once it is up.
  let body = '';
  for (let i = 0; i < 100 && !body.includes('"Codec"'); i++) {
    body = await fetch(`${stack.temporal.uiUrl}/api/v1/settings`).then(
      (r) => r.text(),
      () => '',
    );
    if (!body.includes('"Codec"')) await new Promise((r) => setTimeout(r, 200));
  }
  expect(body).toContain('"Codec"');
  for (const form of [token, encodeURIComponent(token), Buffer.from(token).toString('base64')])
    expect(body).not.toContain(form);
  const settings = JSON.parse(body) as { Codec?: { Endpoint?: string } };
  expect(settings.Codec?.Endpoint ?? '').toBe('');
  const cmdline = readFileSync(`/proc/${stack.temporal.pid}/cmdline`, 'utf8').split('\0').join(' ');
  expect(cmdline).toContain('start-dev');
  expect(cmdline).not.toContain(token);
  // The codec server itself still answers the token, for the browser the person configured (CORS: the UI's origin).
  const answer = await fetch(`${stack.codecServer!.url}/${token}/decode`, {
    method: 'POST',
    body: '{"payloads":[]}',
    headers: { origin: stack.temporal.uiUrl },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('access-control-allow-origin')).toBe(stack.temporal.uiUrl);
});
