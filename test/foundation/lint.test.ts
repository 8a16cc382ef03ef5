import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';

const ROOT = path.resolve(__dirname, '..', '..');
const ESLINT_BIN = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

const EslintJsonSchema = z.array(
  z.object({ messages: z.array(z.object({ ruleId: z.string().nullable(), message: z.string() })) }),
);

describe('lint rules for workflow code', () => {
  it('rejects a workflow that imports got, a Node built-in, or an activity by value', () => {
    // The fixture is ignored by the normal lint run (it is meant to fail); lint it explicitly here.
    const run = spawnSync(
      process.execPath,
      [ESLINT_BIN, '--no-ignore', '--format', 'json', 'test/lint-fixtures/workflows/imports-got.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    const [result] = EslintJsonSchema.parse(JSON.parse(run.stdout));
    const restricted = result!.messages.filter(
      (m) => m.ruleId === '@typescript-eslint/no-restricted-imports',
    );
    const texts = restricted.map((m) => m.message).join('\n');
    expect(texts).toMatch(/no I\/O: call an activity/);
    expect(texts).toMatch(/no Node built-ins/);
    expect(texts).toMatch(/import type/);
    expect(restricted).toHaveLength(3);
  }, 120_000);

  it('rejects a workflow that imports zod, the contract index or the input schemas by value', () => {
    const run = spawnSync(
      process.execPath,
      [ESLINT_BIN, '--no-ignore', '--format', 'json', 'test/lint-fixtures/workflows/imports-zod.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    const [result] = EslintJsonSchema.parse(JSON.parse(run.stdout));
    const restricted = result!.messages.filter(
      (m) => m.ruleId === '@typescript-eslint/no-restricted-imports',
    );
    expect(restricted.map((m) => m.message).join('\n')).toMatch(/No zod in workflow code/);
    expect(restricted.filter((m) => /zod/.test(m.message))).toHaveLength(3);
    expect(restricted).toHaveLength(3);
  }, 120_000);
});

describe('lint rule for configuration', () => {
  it('rejects a module outside the entries that reads process.env, by property, destructuring or index', () => {
    const run = spawnSync(
      process.execPath,
      [ESLINT_BIN, '--no-ignore', '--format', 'json', 'test/lint-fixtures/config/reads-process-env.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    const [result] = EslintJsonSchema.parse(JSON.parse(run.stdout));
    const restricted = result!.messages.filter((m) => m.ruleId === 'no-restricted-properties');
    expect(restricted.map((m) => m.message)).toEqual(
      Array(3).fill(expect.stringMatching(/Only entry modules read process\.env/)),
    );
  }, 120_000);
});
