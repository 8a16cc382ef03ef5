// The runnable example of docs/provider-client.md keeps working.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

it('examples/provider-example.ts runs to the end against an embedded sandbox', async () => {
  const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), ['examples/provider-example.ts'], {
    cwd: root,
    timeout: 60_000,
  });
  expect(stdout).toContain('mismatches: []');
  expect(stdout).toMatch(/ServerError \(retryable true, outcomeUnknown true\): retrying with the same key/);
  expect(stdout).toMatch(/LocalValidationError: .*paymentReason \(REASON_OTHER_REFUSED\)/);
  expect(stdout).toMatch(/verified evt_\S+ payment\.created payment/);
});
