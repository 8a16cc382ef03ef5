// Prebuild of the workflow bundle for production workers (`npm run build`): no webpack at start-up.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildWorkflowBundle, DEFAULT_BUNDLE_PATH, DEFAULT_TRACING_BUNDLE_PATH } from './workflow-bundle';
import { derivedBuildId, workflowBundleDigest } from './build-id';

// Two bundles: the default, and the one a worker with tracing on loads (OpenTelemetry interceptors).
async function main() {
  for (const [target, tracing] of [
    [DEFAULT_BUNDLE_PATH, false],
    [DEFAULT_TRACING_BUNDLE_PATH, true],
  ] as const) {
    const started = Date.now();
    const code = await buildWorkflowBundle({ tracing });
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, code);
    // the build id a worker running this bundle declares (docs/deployment.md, "Build ids")
    const buildId = derivedBuildId(await workflowBundleDigest({ code }));
    console.log(
      `workflow bundle: ${target} (${Math.round(code.length / 1024)} KiB, ${Date.now() - started} ms), build id ${buildId}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
