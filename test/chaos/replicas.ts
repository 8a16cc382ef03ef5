// Two of everything, and one of each lost: two worker processes of build A and two ingress processes (each on its
// own port, the sandbox spreading webhooks over both, replica-set.ts); a third into the traffic one worker is
// SIGKILLed, at half one ingress's process group is, and neither comes back. The survivors carry the rest: the
// killed worker's tasks time out to the other, and every webhook the dead ingress no longer answers is retried on
// the live one (docs/sandbox.md, "Webhooks"). The common checks then count duplicates, lost and wrong outcomes.
import { randomBytes } from 'node:crypto';
import got from 'got';
import {
  attemptsByUrl,
  planReplicas,
  type DeliveryView,
  type ReplicaPlan,
  type ReplicaSet,
} from './replica-set';
import type { Scenario, ScenarioContext } from './scenarios';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  replicas: ReplicaPlan;
  set?: ReplicaSet;
  killedIngress?: string;
  killedAt?: number;
}
// One run at a time per scenario object (runChaos runs scenarios one after the other).
let current: Run | undefined;

async function launched(ctx: ScenarioContext, fraction: number): Promise<void> {
  while (ctx.launched() < Math.ceil(ctx.payments * fraction) && !ctx.done()) await sleep(200);
}

export const REPLICAS_SCENARIO: Scenario = {
  name: 'replicas',
  what: 'two workers and two ingress processes (webhooks spread over both); a third into the traffic one worker SIGKILLed, at half one ingress process group SIGKILLed, neither restarted',
  engines: ['dev-server'],
  // 1.5–2.5 min at the short profile on this machine, both together over CI's 3-minute allowance (docs/journal/chaos-runs.md)
  shortProfile: false,
  async plan() {
    // The ingresses read the environment's codec keys and the stack's secret (given here, generated per run).
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    current = {
      replicas: await planReplicas({
        webhookSecret: secret,
        ingressEnv: () => ({ XBORDER_WEBHOOK_SECRETS: secret }),
      }),
    };
    return current.replicas.plan;
  },
  async setup(ctx) {
    current!.set = await current!.replicas.start(ctx);
  },
  async disrupt(ctx) {
    const run = current!;
    const [, second] = run.set!.workers;
    await launched(ctx, 1 / 3);
    ctx.log(`replicas: SIGKILL of one worker (${ctx.launched()} payments started); it stays down`);
    await second!.stop(); // SIGKILL, no restart
    await launched(ctx, 1 / 2);
    const [victim] = run.set!.ingresses;
    run.killedIngress = victim!.url;
    run.killedAt = Date.now();
    ctx.log(
      `replicas: SIGKILL of the process group of the ingress at ${victim!.url} (${ctx.launched()} payments started); it stays down`,
    );
    await victim!.kill();
    return 2;
  },
  async check(ctx) {
    const run = current!;
    const deliveries = (
      await got(`${ctx.stack.sandbox.url}/sandbox/webhooks`, {
        headers: ctx.stack.sandbox.controlHeaders,
      }).json<{ data: DeliveryView[] }>()
    ).data;
    const { byUrl, failedOver } = attemptsByUrl(deliveries);
    const problems: string[] = [];
    const killed = byUrl[run.killedIngress ?? ''];
    const survivor = Object.entries(byUrl).find(([url]) => url !== run.killedIngress);
    // The disruption proved something only if the killed ingress had taken its share, and events meant for it went to the other.
    if (!killed?.ok)
      problems.push('the killed ingress accepted no webhook before its kill: the spread never reached it');
    if (!survivor?.[1].ok) problems.push('the surviving ingress accepted no webhook');
    if (run.killedAt && failedOver === 0)
      problems.push('no webhook was retried on the surviving ingress after the kill');
    for (const [url, row] of Object.entries(byUrl))
      if (row.refused4xx) problems.push(`${url}: ${row.refused4xx} webhook attempts refused (4xx)`);
    const rows = Object.entries(byUrl).map(
      ([url, r]) => `${url.replace(/^http:\/\/127\.0\.0\.1:/, ':')} ${r.ok} accepted / ${r.failed} failed`,
    );
    return {
      problems,
      notes: `webhook attempts by ingress: ${rows.join(', ')}; ${failedOver} deliveries retried on the other ingress`,
    };
  },
};
