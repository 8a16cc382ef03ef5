// CI smoke run of the benchmark: `npm run bench -- --quick` completes and prints its table.
// Never asserts a timing: the machine is shared and loaded.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

jest.setTimeout(360_000);

let child: ChildProcess | undefined;
afterAll(() => {
  // the bench stops its stack itself; this only covers a test that timed out
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
});

it('runs `npm run bench -- --quick` to the end and prints the table of P1, P2, P3 and P5', async () => {
  const root = path.join(__dirname, '..', '..');
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      let stdout = '';
      let stderr = '';
      child = spawn('npm', ['run', '--silent', 'bench', '--', '--quick'], {
        cwd: root,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
    },
  );
  if (code !== 0) console.error(`bench stderr:\n${stderr.slice(-4000)}`);
  expect(stdout).toContain('| | figure | xborder | baseline | ratio |');
  for (const scenario of ['P1', 'P2', 'P3', 'P5']) expect(stdout).toContain(`| ${scenario} |`);
  expect(stdout).not.toContain('FAILED');
  expect(code).toBe(0);
});
