import { existsSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../src/codec/data-converter';

// This file runs from the sources (workers/, via tsx) or compiled (dist/workers/): find the project root either way.
const COMPILED = path.basename(path.resolve(__dirname, '..')) === 'dist';
const ROOT = COMPILED ? path.resolve(__dirname, '..', '..') : path.resolve(__dirname, '..');
export const WORKFLOWS_PATH = COMPILED ? path.join(ROOT, 'dist', 'workflows') : path.join(ROOT, 'workflows');
/** telemetry (issue 6): counts payments by outcome on the workflow metric meter */
export const WORKFLOW_INTERCEPTOR_MODULES = [path.join(WORKFLOWS_PATH, 'payment-metrics-interceptor')];
export const DEFAULT_BUNDLE_PATH = path.join(ROOT, 'dist', 'workflow-bundle.js');

/** The bundler's logger: warnings and errors only (webpack's progress lines are noise). */
export const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

/**
 * Compiled (production, `npm run build`): the prebuilt bundle next to the compiled code. From the sources (dev,
 * tests): always bundle the current workflow code, never dist/'s. An explicit path always wins. (A compiled worker
 * runs what the last `npm run build` made: rebuild after changing workflows.)
 */
export async function loadWorkflowBundle(bundlePath?: string): Promise<WorkflowBundleOption> {
  if (bundlePath) return { codePath: bundlePath };
  if (COMPILED && existsSync(DEFAULT_BUNDLE_PATH)) return { codePath: DEFAULT_BUNDLE_PATH };
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, failureConverterPath: FAILURE_CONVERTER_PATH, logger: quietBundlerLogger });
}

export async function buildWorkflowBundle(): Promise<string> {
  return (await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, failureConverterPath: FAILURE_CONVERTER_PATH, logger: quietBundlerLogger })).code;
}
