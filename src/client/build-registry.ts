// Which workflow bundle a build id stands for, kept where Temporal holds the build: the Worker Deployment
// Version's metadata (docs/deployment.md, "Build ids"). A worker reads it before it polls and refuses to run
// other code under a build id another bundle registered; the first worker of a build records its bundle's digest.
// The SDK 1.24 client has no wrapper for these calls, so they go to WorkflowService directly (as
// worker-deployments.ts does); a NativeConnection's workflowService serves too.
import { isGrpcServiceError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

/** The metadata key of the bundle's SHA-256 (hex) on a Worker Deployment Version. */
export const BUNDLE_DIGEST_KEY = 'xborder.workflowBundleSha256';

const GRPC_NOT_FOUND = 5;
const GRPC_FAILED_PRECONDITION = 9;

type VersionCalls = Pick<
  temporal.api.workflowservice.v1.WorkflowService,
  'describeWorkerDeploymentVersion' | 'updateWorkerDeploymentVersionMetadata'
>;

export interface BuildRef {
  namespace: string;
  deploymentName: string;
  buildId: string;
}

/**
 * Another bundle already registered this build id: running this code under it would replay PINNED payments on code
 * that did not start them (non-determinism in money workflows). Not retryable: the fix is another build id (leave
 * XBORDER_BUILD_ID unset and the worker derives one from its bundle).
 */
export class BuildIdTakenError extends Error {
  readonly type = 'BuildIdTakenError';
  readonly retryable = false;
  constructor(
    readonly build: BuildRef,
    readonly registeredDigest: string,
    readonly ownDigest: string,
  ) {
    super(
      `build id ${build.buildId} of Worker Deployment ${build.deploymentName} is registered to workflow bundle ` +
        `sha256 ${registeredDigest.slice(0, 12)}…, this worker runs ${ownDigest.slice(0, 12)}…: refusing to start ` +
        `(two codes under one build id break PINNED payments). Leave XBORDER_BUILD_ID unset to use the id derived from the bundle`,
    );
    this.name = 'BuildIdTakenError';
  }
}

/** The digest recorded for the build; null when the version does not exist yet or has none recorded. */
export async function registeredBundleDigest(service: VersionCalls, build: BuildRef): Promise<string | null> {
  try {
    const response = await service.describeWorkerDeploymentVersion({
      namespace: build.namespace,
      deploymentVersion: { deploymentName: build.deploymentName, buildId: build.buildId },
    });
    const entry = response.workerDeploymentVersionInfo?.metadata?.entries?.[BUNDLE_DIGEST_KEY];
    if (!entry) return null;
    const digest = defaultPayloadConverter.fromPayload<unknown>(entry);
    return typeof digest === 'string' ? digest : null;
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND) return null;
    throw error;
  }
}

/** Before the worker polls: throws BuildIdTakenError when another bundle holds the build id. */
export async function refuseTakenBuildId(
  service: VersionCalls,
  build: BuildRef,
  ownDigest: string,
): Promise<void> {
  const registered = await registeredBundleDigest(service, build);
  if (registered !== null && registered !== ownDigest)
    throw new BuildIdTakenError(build, registered, ownDigest);
}

export interface RecordBundleOptions {
  /** How long to wait for the server to know the version (it exists once the worker has polled). Default 60 s. */
  timeoutMs?: number;
  retryEveryMs?: number;
  identity?: string;
}

/**
 * After the worker polled: records the bundle's digest on the version when none is, then reads it back. Two
 * workers of different bundles racing for a new build id both write; the read-back after the last write shows the
 * loser another digest and it gets BuildIdTakenError (it stops before its first task is worth anything: a build
 * gets tasks only once current or ramping, an operator step).
 */
export async function recordBundleDigest(
  service: VersionCalls,
  build: BuildRef,
  ownDigest: string,
  options: RecordBundleOptions = {},
): Promise<'recorded' | 'matched'> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    try {
      const before = await registeredBundleDigest(service, build);
      if (before !== null && before !== ownDigest) throw new BuildIdTakenError(build, before, ownDigest);
      if (before === ownDigest) return 'matched';
      await service.updateWorkerDeploymentVersionMetadata({
        namespace: build.namespace,
        deploymentVersion: { deploymentName: build.deploymentName, buildId: build.buildId },
        upsertEntries: { [BUNDLE_DIGEST_KEY]: defaultPayloadConverter.toPayload(ownDigest) },
        ...(options.identity ? { identity: options.identity } : {}),
      });
      const after = await registeredBundleDigest(service, build);
      if (after !== null && after !== ownDigest) throw new BuildIdTakenError(build, after, ownDigest);
      if (after === ownDigest) return 'recorded';
    } catch (error) {
      // the version is unknown until the worker's first poll reached the server: wait for it
      const unknownYet =
        isGrpcServiceError(error) &&
        (error.code === GRPC_NOT_FOUND || error.code === GRPC_FAILED_PRECONDITION);
      if (!unknownYet || Date.now() >= deadline) throw error;
    }
    if (Date.now() >= deadline)
      throw new Error(
        `build ${build.buildId} of ${build.deploymentName}: the server did not know the version within the wait; its bundle is not recorded`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.retryEveryMs ?? 250));
  }
}
