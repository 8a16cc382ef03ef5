// `xborder deploy ramp|set-current` for a build whose workers have not polled every task queue: the server
// refuses (FAILED_PRECONDITION) and the operator is told what to do, with exit code 1, not a gRPC stack trace.
import type { Client } from '@temporalio/client';
import { runDeployCommand } from '../../../src/cli/deploy';
import {
  DeploymentStepRefusedError,
  setCurrentVersion,
  setRampingVersion,
} from '../../../src/client/worker-deployments';

const SERVER_SAYS =
  "proposed ramping version 'xborder:B' is missing active task queues from the current version";

function refusingClient(): Client {
  const refusal = Object.assign(new Error(`9 FAILED_PRECONDITION: ${SERVER_SAYS}`), {
    code: 9,
    details: SERVER_SAYS,
    metadata: {},
  });
  const refuse = async () => Promise.reject(refusal);
  return {
    options: { namespace: 'default', identity: 'test' },
    workflowService: { setWorkerDeploymentRampingVersion: refuse, setWorkerDeploymentCurrentVersion: refuse },
  } as unknown as Client;
}

it.each([
  ['ramp', () => setRampingVersion(refusingClient(), 'xborder', 'B', 50)],
  ['set-current', () => setCurrentVersion(refusingClient(), 'xborder', 'B')],
])(
  '%s refused by the server becomes a typed error naming the build, the reason and the fix',
  async (_, step) => {
    const error = await step().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeploymentStepRefusedError);
    expect(error).toMatchObject({
      type: 'DeploymentStepRefusedError',
      deploymentName: 'xborder',
      buildId: 'B',
      serverMessage: SERVER_SAYS,
    });
    expect((error as Error).message).toMatch(
      /missing active task queues.*Start build B's workers .*XBORDER_BUILD_ID=B.*xborder deploy status.*run this again/,
    );
  },
);

it('the deploy command passes the refusal on for runDeploy to print (exit 1)', async () => {
  await expect(
    runDeployCommand(
      refusingClient(),
      { sub: 'ramp', buildId: 'B', percentage: 50 },
      { deploymentName: 'xborder', allowNoPollers: false, json: false },
    ),
  ).rejects.toBeInstanceOf(DeploymentStepRefusedError);
});
