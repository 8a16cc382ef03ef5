// Workflow bundles of the bench: xborder's (the same build as `npm run build`) and the skeleton's.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { buildWorkflowBundle, quietBundlerLogger } from '../../workers/workflow-bundle';

export async function bundleSkeleton(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('./skeleton/workflows'),
    logger: quietBundlerLogger,
  });
  return code;
}

export interface PrebuiltBundles {
  xborder: string;
  skeleton: string;
  xborderKb: number;
  skeletonKb: number;
}

/** Builds both bundles into `dir` (files the worker processes load with `codePath`). */
export async function prebuildBundles(dir: string): Promise<PrebuiltBundles> {
  mkdirSync(dir, { recursive: true });
  const xborderCode = await buildWorkflowBundle();
  const skeletonCode = await bundleSkeleton();
  const xborder = path.join(dir, 'xborder-workflow-bundle.js');
  const skeleton = path.join(dir, 'skeleton-workflow-bundle.js');
  writeFileSync(xborder, xborderCode);
  writeFileSync(skeleton, skeletonCode);
  return {
    xborder,
    skeleton,
    xborderKb: Math.round(xborderCode.length / 1024),
    skeletonKb: Math.round(skeletonCode.length / 1024),
  };
}
