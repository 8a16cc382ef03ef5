// Prebuild of the workflow bundle for production workers (`npm run build`): no webpack at start-up.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildWorkflowBundle, DEFAULT_BUNDLE_PATH } from './workflow-bundle';

async function main() {
  const started = Date.now();
  const code = await buildWorkflowBundle();
  mkdirSync(path.dirname(DEFAULT_BUNDLE_PATH), { recursive: true });
  writeFileSync(DEFAULT_BUNDLE_PATH, code);
  console.log(`workflow bundle: ${DEFAULT_BUNDLE_PATH} (${Math.round(code.length / 1024)} KiB, ${Date.now() - started} ms)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
