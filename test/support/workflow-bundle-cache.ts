// The product's workflow bundle for tests, built once per source state rather than once per test file. Webpack
// costs ~3 s of CPU per bundle; the inner loop (`npm run test:fast`) has ~35 files that each need the same one.
// The bundle is written to the OS temp dir under a key that hashes every file the bundle can include (workflows/,
// src/, activities/: the only folders workflow code imports from, `.dependency-cruiser.cjs`), the SDK's version and
// the lockfile, so any change to the code, a dependency or the bundler's input makes a new one. A bundle for
// another workflows path (bench skeleton, fixtures) is not cached on disk: its imports are not known here.
// XBORDER_TEST_BUNDLE_CACHE=off bundles in every file, as before.
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { quietBundlerLogger, WORKFLOW_INTERCEPTOR_MODULES } from '../../workers/workflow-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
/** The workflows of the product, as `require.resolve('…/workflows')` names them (its index.ts). */
export const PRODUCT_WORKFLOWS = path.join(ROOT, 'workflows');
const SOURCE_DIRS = ['workflows', 'src', 'activities'];
const CACHE_DIR = path.join(os.tmpdir(), 'xborder-test-workflow-bundles');
const DAY_MS = 24 * 60 * 60 * 1000;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
    return /\.(ts|js|cjs|mjs|json)$/.test(entry.name) ? [full] : [];
  });
}

/** A key for the bundle of the product's workflows: changes when anything it may include changes. */
export function productBundleKey(): string {
  const hash = createHash('sha256');
  const sdk = (name: string) => readFileSync(require.resolve(`@temporalio/${name}/package.json`), 'utf8');
  // the checkout's path too: the bundle names its modules' paths (stack traces), so worktrees do not share one
  hash.update(ROOT).update(sdk('worker')).update(sdk('workflow'));
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  // the list of interceptor modules bundled with the workflows
  hash.update(readFileSync(path.join(ROOT, 'workers', 'workflow-bundle.ts')));
  for (const file of SOURCE_DIRS.flatMap((d) => filesUnder(path.join(ROOT, d))).sort()) {
    hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

const isProduct = (workflowsPath: string) =>
  path.resolve(workflowsPath).replace(/[/\\]index\.(ts|js)$/, '') === PRODUCT_WORKFLOWS;

/** Bundles `workflowsPath`; the product's workflows come from the disk cache when their sources are unchanged. */
export async function cachedWorkflowBundle(workflowsPath: string): Promise<{ code: string }> {
  // the product's workflows run with the production bundle's interceptors (the reserved-ID guard among them), as
  // every worker runs them; another workflows path (bench skeleton, fixtures) without them
  const workflowInterceptorModules = isProduct(workflowsPath) ? WORKFLOW_INTERCEPTOR_MODULES : undefined;
  const build = async () => ({
    code: (
      await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: quietBundlerLogger })
    ).code,
  });
  if (!isProduct(workflowsPath) || process.env.XBORDER_TEST_BUNDLE_CACHE === 'off') return build();
  const file = path.join(CACHE_DIR, `${productBundleKey()}.js`);
  if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
  const bundle = await build();
  mkdirSync(CACHE_DIR, { recursive: true });
  // written whole, then renamed: a parallel jest worker reads either nothing or the complete bundle
  const partial = `${file}.${randomUUID()}.tmp`;
  writeFileSync(partial, bundle.code);
  renameSync(partial, file);
  pruneOld(file);
  return bundle;
}

/** Bundles of older sources: dropped after a day, so the temp dir does not grow with every edit. */
function pruneOld(keep: string): void {
  for (const name of readdirSync(CACHE_DIR)) {
    const full = path.join(CACHE_DIR, name);
    try {
      if (full !== keep && Date.now() - statSync(full).mtimeMs > DAY_MS) unlinkSync(full);
    } catch {
      // another run pruned it first
    }
  }
}
