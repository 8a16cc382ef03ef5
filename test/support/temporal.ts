import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { cachedWorkflowBundle } from './workflow-bundle-cache';
import { temporalBinaries } from '../../src/cli/temporal-binaries';

export { temporalBinaries };

/**
 * A real Temporal dev server (the CLI's `server start-dev`) with our search attributes registered; `extraArgs`
 * go to the CLI (e.g. `--dynamic-config-value matching.enableFairness=true`).
 */
export async function createDevServerEnv(extraArgs: string[] = []): Promise<TestWorkflowEnvironment> {
  const { cli } = temporalBinaries();
  return TestWorkflowEnvironment.createLocal({
    server: {
      ...(cli ? { executable: { type: 'existing-path' as const, path: cli } } : {}),
      ip: '127.0.0.1',
      searchAttributes: [...ALL_SEARCH_ATTRIBUTE_KEYS],
      extraArgs: ['--log-level', 'error', ...extraArgs],
    },
  });
}

/** The time-skipping test server: timers of days pass in milliseconds when no activity runs. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const { testServer } = temporalBinaries();
  return TestWorkflowEnvironment.createTimeSkipping({
    server: testServer ? { executable: { type: 'existing-path', path: testServer } } : {},
  });
}

const bundles = new Map<string, Promise<{ code: string }>>();

/**
 * Bundles the workflows at `workflowsPath` once per test file (jest gives each file its own module registry); the
 * product's workflows once per state of their sources, across files and runs (workflow-bundle-cache.ts).
 */
export function workflowBundle(workflowsPath: string): Promise<{ code: string }> {
  let bundle = bundles.get(workflowsPath);
  if (!bundle) {
    bundle = cachedWorkflowBundle(workflowsPath);
    bundles.set(workflowsPath, bundle);
  }
  return bundle;
}

/** A task queue no other test uses. */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** A workflow ID no other test uses. */
export function uniqueWorkflowId(prefix: string): string {
  return `${prefix}:${randomUUID()}`;
}
