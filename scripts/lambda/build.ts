// The Lambda artefacts (`npm run build:lambda`; docs/deployment.md, "Packaging"):
//   dist/lambda/ingress/index.js  webhook ingress, one self-contained file (handler: index.handler)
//   dist/lambda/worker/           worker: index.js (our code bundled), workflow-bundle.js and workflow-bundle-otel.js
//                                 (prebuilt; the second for tracing on), package.json
//                                 naming the @temporalio packages left outside the bundle (native core, webpack-free
//                                 but with a .node binary), installed with `npm install --omit=dev` for the Lambda's
//                                 platform before zipping.
// With --install (LAMBDA_ARCH=x64|arm64, default x64), that npm install is run and the other platforms' native
// cores are removed; with --zip, also dist/lambda/ingress.zip and (after the install) dist/lambda/worker.zip.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
export const LAMBDA_DIST = path.join(ROOT, 'dist', 'lambda');
/** Lambda's Node runtime (nodejs20.x or later). */
const TARGET = 'node20';

interface PackageJson {
  version: string;
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
}

function pick(record: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => names.includes(name)));
}

function rootPackage(): PackageJson {
  return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
}

/** The ingress in one file: @temporalio/client is pure JavaScript (grpc-js), so everything bundles. */
export async function buildLambdaIngress(outDir = path.join(LAMBDA_DIST, 'ingress')): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const outfile = path.join(outDir, 'index.js');
  await build({
    entryPoints: [path.join(ROOT, 'src', 'ingress', 'lambda-main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: TARGET,
    format: 'cjs',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await buildFailureConverter(outDir, []);
  return outfile;
}

/**
 * The payload codec's failure converter is loaded by path at run time (DataConverter.failureConverterPath,
 * src/codec/data-converter.ts resolves `./failure-converter` next to the code that asks): it ships as its own file
 * beside each entry's index.js.
 */
async function buildFailureConverter(outDir: string, external: string[]): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, 'src', 'codec', 'failure-converter.ts')],
    outfile: path.join(outDir, 'failure-converter.js'),
    bundle: true,
    platform: 'node',
    target: TARGET,
    format: 'cjs',
    external,
    logLevel: 'warning',
  });
}

/**
 * The worker: every @temporalio package stays outside the bundle. The worker's native core cannot be bundled, and
 * activities, interceptors and the worker must share one @temporalio/activity and @temporalio/common (activity
 * context, failure classes), so they all come from the one node_modules the package.json below installs.
 */
export async function buildLambdaWorker(outDir = path.join(LAMBDA_DIST, 'worker')): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const pkg = rootPackage();
  // @temporalio/worker and @temporalio/lambda-worker are dev dependencies (optional peers) of the package: a
  // client-only install does without them; the Lambda worker needs them.
  const temporal = Object.fromEntries(
    Object.entries({
      ...pkg.dependencies,
      ...pick(pkg.devDependencies ?? {}, [
        '@temporalio/worker',
        '@temporalio/lambda-worker',
        '@temporalio/nexus',
        '@opentelemetry/exporter-trace-otlp-http',
      ]),
    })
      // @opentelemetry/* with them: interceptors-opentelemetry and our tracing share one API instance;
      // nexus-rpc too: the worker and our Nexus service handler must share one copy
      .filter(
        ([name]) =>
          name.startsWith('@temporalio/') || name.startsWith('@opentelemetry/') || name === 'nexus-rpc',
      ),
  );
  await build({
    entryPoints: [path.join(ROOT, 'workers', 'lambda-main.ts')],
    outfile: path.join(outDir, 'index.js'),
    bundle: true,
    platform: 'node',
    target: TARGET,
    format: 'cjs',
    sourcemap: 'linked',
    external: ['@temporalio/*', '@opentelemetry/*', 'nexus-rpc'],
    logLevel: 'warning',
  });
  await buildFailureConverter(outDir, ['@temporalio/*']);
  writeFileSync(path.join(outDir, 'workflow-bundle.js'), await buildWorkflowBundle());
  writeFileSync(path.join(outDir, 'workflow-bundle-otel.js'), await buildWorkflowBundle({ tracing: true }));
  const manifest = {
    name: 'xborder-lambda-worker',
    version: pkg.version,
    private: true,
    main: 'index.js',
    dependencies: temporal,
    // Same as the root package.json: @temporalio/lambda-worker runs on our one SDK version (docs/deployment.md).
    ...(pkg.overrides ? { overrides: pkg.overrides } : {}),
  };
  writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return outDir;
}

/** The native core ships for five platforms (~28 MB each); a Lambda runs one. Keeps the unzipped size under 250 MB. */
const LAMBDA_CORE_PLATFORM = { x64: 'x86_64-unknown-linux-gnu', arm64: 'aarch64-unknown-linux-gnu' } as const;

function pruneForLambda(workerDir: string, arch: keyof typeof LAMBDA_CORE_PLATFORM): void {
  const bridge = path.join(workerDir, 'node_modules', '@temporalio', 'core-bridge');
  for (const platform of readdirSync(path.join(bridge, 'releases'))) {
    if (platform !== LAMBDA_CORE_PLATFORM[arch])
      rmSync(path.join(bridge, 'releases', platform), { recursive: true, force: true });
  }
  rmSync(path.join(bridge, 'sdk-core'), { recursive: true, force: true }); // Rust sources, for building from source only
}

function zipDir(dir: string, zipFile: string): void {
  rmSync(zipFile, { force: true });
  execFileSync('zip', ['-qr', zipFile, '.'], { cwd: dir, stdio: 'inherit' });
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const started = Date.now();
  const ingress = await buildLambdaIngress();
  console.log(`lambda ingress: ${path.relative(ROOT, ingress)} (handler index.handler)`);
  const worker = await buildLambdaWorker();
  console.log(
    `lambda worker: ${path.relative(ROOT, worker)}/ (handler index.handler; run npm install --omit=dev there for the Lambda platform)`,
  );
  if (args.has('--install')) {
    const arch = process.env.LAMBDA_ARCH === 'arm64' ? 'arm64' : 'x64';
    execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--os=linux', `--cpu=${arch}`], {
      cwd: worker,
      stdio: 'inherit',
    });
    pruneForLambda(worker, arch);
  }
  if (args.has('--zip')) {
    zipDir(path.dirname(ingress), path.join(LAMBDA_DIST, 'ingress.zip'));
    if (args.has('--install')) zipDir(worker, path.join(LAMBDA_DIST, 'worker.zip'));
    console.log(`zips in ${path.relative(ROOT, LAMBDA_DIST)}/`);
  }
  console.log(`build:lambda done in ${Date.now() - started} ms`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
