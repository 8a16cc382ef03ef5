// Activity task tokens never reach a log (SECURITY.md): the SDK adds `taskToken` (base64) to every activity log
// line, "Activity failed" warnings among them, and the token completes or fails the activity for whoever holds it.
// The local stack's Runtime logger (xborder dev) and the worker's JSON logger both redact it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { redactingConsoleLogger } from '../../src/telemetry/console-logger';
import { createJsonLogger } from '../../src/telemetry/logger';

const TOKEN = Buffer.from('CiQ0ZGM3-task-token-of-an-activity-0123456789').toString('base64');
const meta = {
  sdkComponent: 'activity',
  isLocal: false,
  attempt: 3,
  namespace: 'default',
  taskToken: TOKEN,
  activityId: '7',
  activityType: 'createPayment',
  workflowId: 'payment:k1',
};

it('the local stack’s Runtime logger masks the task token of an activity warning and keeps the rest', () => {
  const lines: string[] = [];
  redactingConsoleLogger('WARN', (l) => lines.push(l)).warn('Activity failed', meta);
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain(TOKEN);
  expect(lines[0]).toContain('"activityType":"createPayment"');
  expect(lines[0]).toContain('[WARN] Activity failed');
});

it('the worker’s JSON logger masks it too', () => {
  const lines: string[] = [];
  createJsonLogger({ level: 'WARN', write: (l) => lines.push(l) }).warn('Activity failed', meta);
  expect(lines.join()).not.toContain(TOKEN);
});

it('`xborder dev` installs the redacting logger, not the SDK’s DefaultLogger (which prints fields as they are)', () => {
  const dev = readFileSync(path.resolve(__dirname, '../../src/cli/dev.ts'), 'utf8');
  expect(dev).toMatch(/Runtime\.install\(\{ logger: redactingConsoleLogger\(/);
  expect(dev).not.toMatch(/new DefaultLogger\(/);
});
