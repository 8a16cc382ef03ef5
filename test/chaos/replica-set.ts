// Two of everything (replicas.ts, key-rotation.ts): two worker processes of build A and two ingress processes, each
// ingress on its own port, the sandbox spreading its webhooks over both (docs/sandbox.md, "Webhooks": each event to
// one, a retry to the other), as a payments team runs them behind no load balancer of ours.
import { freePort } from '../support/ports';
import { startIngressProcess, type IngressProcess } from './ingress-process';
import type { ScenarioContext, StackPlan } from './scenarios';
import { superviseWorker, type WorkerSupervisor } from './worker-supervisor';

export interface ReplicaSet {
  ingresses: IngressProcess[];
  /** ctx.workers (the run's build A) and a second supervised worker of the same build */
  workers: WorkerSupervisor[];
}

export interface ReplicaPlan {
  plan: StackPlan;
  /** Starts the two ingress processes and the second worker, once the stack is up (scenario setup). */
  start(ctx: ScenarioContext): Promise<ReplicaSet>;
}

/** Reserves the ingresses' ports before the stack starts, so the sandbox can be pointed at them. */
export async function planReplicas(
  options: { ingressEnv: () => Record<string, string | undefined> } & Omit<StackPlan, 'webhooks' | 'close'>,
): Promise<ReplicaPlan> {
  const { ingressEnv, ...rest } = options;
  const ports = [await freePort(), await freePort()];
  const started: IngressProcess[] = [];
  const plan: StackPlan = {
    ...rest,
    webhooks: { urls: ports.map((port) => `http://127.0.0.1:${port}/webhooks`), delivery: 'spread' },
    async close() {
      for (const ingress of started) await ingress.stop();
    },
  };
  return {
    plan,
    async start(ctx) {
      for (const port of ports) {
        started.push(
          await startIngressProcess(
            {
              temporalAddress: ctx.engine.address,
              namespace: ctx.engine.namespace,
              taskQueue: ctx.stack.taskQueue,
              port,
              env: ingressEnv,
            },
            ctx.log,
          ),
        );
      }
      const second = await superviseWorker(
        { ...ctx.target, version: { deploymentName: ctx.deploymentName, buildId: 'A' } },
        ctx.log,
      );
      ctx.addWorkers(second);
      await second.ready();
      ctx.log(`replicas: ingresses on ${ports.join(', ')} (webhooks spread over both), 2 workers of build A`);
      return { ingresses: started, workers: [ctx.workers, second] };
    },
  };
}

/** Each webhook attempt the sandbox made: where it went and the answer (GET /sandbox/webhooks). */
export interface AttemptView {
  url?: string;
  status: number | null;
}
export interface DeliveryView {
  eventId: string;
  state: string;
  attempts: AttemptView[];
}

/** Per URL: attempts answered 2xx, refused 4xx, failed otherwise; and deliveries whose retry went to the other replica. */
export function attemptsByUrl(deliveries: DeliveryView[]): {
  byUrl: Record<string, { ok: number; refused4xx: number; failed: number }>;
  failedOver: number;
} {
  const byUrl: Record<string, { ok: number; refused4xx: number; failed: number }> = {};
  let failedOver = 0;
  for (const d of deliveries) {
    for (const a of d.attempts) {
      const row = (byUrl[a.url ?? '?'] ??= { ok: 0, refused4xx: 0, failed: 0 });
      if (a.status !== null && a.status >= 200 && a.status < 300) row.ok++;
      else if (a.status !== null && a.status >= 400 && a.status < 500) row.refused4xx++;
      else row.failed++;
    }
    const last = d.attempts.at(-1);
    if (d.state === 'delivered' && d.attempts.length > 1 && last?.url !== d.attempts[0]?.url) failedOver++;
  }
  return { byUrl, failedOver };
}
