// Guard (docs/performance.md): what every workflow evaluates — the module graph of workflows/index.ts,
// plus the bundle's workflow interceptors and failure converter — loads no zod and not the contract's index.
// Each cached workflow evaluates that graph again (its own webpack module cache), so a zod import anywhere in it
// costs every workflow megabytes. The lint rule catches direct imports (test/foundation/lint.test.ts); this
// catches transitive ones, in the module graph and in the built bundle.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';

const ROOT = path.resolve(__dirname, '..', '..');

/** Loads the modules in a fresh Node (tsx), runs `then`, and lists what of zod and src/contract got loaded. */
function loadedAfter(modules: string[], then = ''): { zod: string[]; contract: string[] } {
  const script = `
    ${modules.map((m) => `require(${JSON.stringify(m)});`).join('\n')}
    ${then}
    const loaded = Object.keys(require.cache);
    console.log(JSON.stringify({
      zod: loaded.filter((k) => k.includes('/node_modules/zod/')),
      contract: loaded.filter((k) => k.includes('/src/contract/')).map((k) => k.split('/src/contract/')[1]),
    }));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { zod: string[]; contract: string[] };
}

const WORKFLOW_MODULES = [
  path.join(ROOT, 'workflows', 'index.ts'),
  path.join(ROOT, 'workflows', 'reserved-id-interceptor.ts'), // workers/workflow-bundle.ts WORKFLOW_INTERCEPTOR_MODULES
  path.join(ROOT, 'workflows', 'payment-metrics-interceptor.ts'), // workers/workflow-bundle.ts WORKFLOW_INTERCEPTOR_MODULES
  path.join(ROOT, 'src', 'codec', 'failure-converter.ts'), // FAILURE_CONVERTER_PATH
];

describe('workflow code evaluates no zod', () => {
  it('the modules every workflow evaluates load neither zod nor the contract index', () => {
    const { zod, contract } = loadedAfter(WORKFLOW_MODULES);
    expect(zod).toEqual([]);
    expect(contract).not.toContain('index.ts');
    // the zod-bearing schema files of the contract are not among them either
    for (const file of ['payment.ts', 'primitives.ts', 'errors.ts', 'customer.ts', 'account.ts'])
      expect(contract).not.toContain(file);
  }, 60_000);

  it('the built workflow bundle contains no zod module at all', async () => {
    const code = await buildWorkflowBundle();
    // webpack names each module by its path ("./node_modules/zod/v4/classic/schemas.js")
    expect(code).not.toMatch(/node_modules\/zod\//);
    expect(code).not.toMatch(/"\.\/src\/contract\/index\.ts"/);
    expect(code).toMatch(/"\.\/src\/contract\/business-days\.ts"/); // the names are there to be found
  }, 120_000);
});
