import { existsSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../src/codec/data-converter';
import { chooseBundlePath, tracingBundlePath } from './tracing-bundle-path';

// This file runs from the sources (workers/, via tsx) or compiled (dist/workers/): find the project root either way.
const COMPILED = path.basename(path.resolve(__dirname, '..')) === 'dist';
const ROOT = COMPILED ? path.resolve(__dirname, '..', '..') : path.resolve(__dirname, '..');
export const WORKFLOWS_PATH = COMPILED ? path.join(ROOT, 'dist', 'workflows') : path.join(ROOT, 'workflows');
/**
 * In every bundle (with tracing on and off), in this order:
 * - security: only nexusOutcome runs under a `nexus-outcome:` ID, and it under no other (reserved-id-interceptor.ts);
 *   first, so a refused run reaches no other interceptor;
 * - telemetry: counts payments by outcome on the workflow metric meter.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  path.join(WORKFLOWS_PATH, 'reserved-id-interceptor'),
  path.join(WORKFLOWS_PATH, 'payment-metrics-interceptor'),
];
/**
 * Tracing: the OpenTelemetry workflow interceptors. A separate bundle: every cached workflow evaluates
 * its bundle, so the default one (tracing off) carries no OpenTelemetry code (docs/performance.md).
 */
export const TRACING_INTERCEPTOR_MODULE = require.resolve(
  '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
);
export const DEFAULT_BUNDLE_PATH = path.join(ROOT, 'dist', 'workflow-bundle.js');
export const DEFAULT_TRACING_BUNDLE_PATH = tracingBundlePath(DEFAULT_BUNDLE_PATH);

export interface WorkflowBundleChoice {
  /** The bundle with the OpenTelemetry workflow interceptors (a worker with tracing on). */
  tracing?: boolean;
}

function interceptorModules(choice: WorkflowBundleChoice): string[] {
  return choice.tracing
    ? [...WORKFLOW_INTERCEPTOR_MODULES, TRACING_INTERCEPTOR_MODULE]
    : WORKFLOW_INTERCEPTOR_MODULES;
}

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
 * With tracing on, the `-otel` bundle next to the chosen one (workers/tracing-bundle-path.ts).
 * Compiled (production, `npm run build`): the prebuilt bundle next to the compiled code. From the sources (dev,
 * tests): always bundle the current workflow code, never dist/'s. An explicit path always wins. (A compiled worker
 * runs what the last `npm run build` made: rebuild after changing workflows.)
 */
export async function loadWorkflowBundle(
  bundlePath?: string,
  choice: WorkflowBundleChoice = {},
): Promise<WorkflowBundleOption> {
  if (bundlePath) return { codePath: chooseBundlePath(bundlePath, choice.tracing === true) };
  const prebuilt = choice.tracing ? DEFAULT_TRACING_BUNDLE_PATH : DEFAULT_BUNDLE_PATH;
  if (COMPILED && existsSync(prebuilt)) return { codePath: prebuilt };
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: interceptorModules(choice),
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: quietBundlerLogger,
  });
}

export async function buildWorkflowBundle(choice: WorkflowBundleChoice = {}): Promise<string> {
  return (
    await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: interceptorModules(choice),
      failureConverterPath: FAILURE_CONVERTER_PATH,
      logger: quietBundlerLogger,
    })
  ).code;
}
