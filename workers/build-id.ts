// The build id of a worker, derived from the workflow code it runs (docs/deployment.md, "Build ids"): a PINNED
// payment replays only on the build that started it, so one build id must never name two different codes. A
// version string a person must remember to bump can lie; the digest of the workflow bundle cannot.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { WorkflowBundleOption } from '@temporalio/worker';
import { packageVersion } from '../src/support/package-root';

/** Hex characters of the bundle's SHA-256 in the build id: 48 bits, no collision among a deployment's builds. */
export const BUILD_ID_DIGEST_CHARS = 12;

/** SHA-256 (hex) of the workflow bundle a worker runs: its code, read from the file when it is prebuilt. */
export async function workflowBundleDigest(bundle: WorkflowBundleOption): Promise<string> {
  const code = 'code' in bundle ? bundle.code : await readFile(bundle.codePath, 'utf8');
  return createHash('sha256').update(code).digest('hex');
}

/**
 * `<package version>+<first 12 hex of the bundle's SHA-256>`, e.g. `0.3.0+4f1c2a9be07d`. The hash decides (new
 * workflow code, new id, bumped or not); the version before it is only a label for people and sorts the ids
 * (semver build metadata, `+`, which the Worker Deployment API accepts). The bundle names its modules' paths, so
 * the same code built in another directory is another build: harmless (a second id for one code never lies), and
 * images build in one directory (/app).
 */
export function derivedBuildId(bundleDigest: string, version: string = packageVersion()): string {
  return `${version}+${bundleDigest.slice(0, BUILD_ID_DIGEST_CHARS)}`;
}
