import { existsSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';

export const WORKFLOWS_PATH = path.resolve(__dirname, '..', 'workflows');
export const DEFAULT_BUNDLE_PATH = path.resolve(__dirname, '..', 'dist', 'workflow-bundle.js');

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

/** The prebuilt bundle when there is one (production: `npm run build`), else bundle the sources now (dev). */
export async function loadWorkflowBundle(bundlePath = DEFAULT_BUNDLE_PATH): Promise<WorkflowBundleOption> {
  if (existsSync(bundlePath)) return { codePath: bundlePath };
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
}

export async function buildWorkflowBundle(): Promise<string> {
  return (await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger })).code;
}
