// What the scenarios drive: a payment (the real client call, src/client/payments.ts) or the skeleton, behind
// one interface: start (returns once `created`), fund, await the outcome, and a no-op signal (P2 probe).
import got from 'got';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { startPayment, type PaymentRequest } from '../../src/client/payments';
import { providerPaymentChangedSignal } from '../../workflows/provider-payment/api';
import {
  SKELETON_PAIR_WORKFLOW_TYPE,
  SKELETON_WORKFLOW_TYPE,
  skeletonCreatedUpdate,
  skeletonFundSignal,
  skeletonNoopSignal,
} from './skeleton/messages';

/** skeleton-pair: the skeleton that also starts a second workflow at create, as the payment starts its entity */
export type SubjectKind = 'payment' | 'skeleton' | 'skeleton-pair';

export interface Started {
  key: string;
  workflowId: string;
  /** provider payment id (payment) or the skeleton's created value */
  createdId: string;
  /** ms from the call to `created` */
  createdMs: number;
}

export interface Subject {
  kind: SubjectKind;
  start(key: string): Promise<Started>;
  fund(started: Started): Promise<void>;
  /** The outcome (COMPLETED, …) of the workflow. */
  outcome(started: Started): Promise<string>;
  /** A signal the workflow takes and ignores: measures what handling one costs (cached or replayed). */
  noopSignal(started: Started): Promise<void>;
}

export function paymentRequest(reference: string): PaymentRequest {
  return {
    customerId: 'cus_demo_individual',
    source: {
      currencyCode: 'USDC',
      amount: 100,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    reference,
    paymentReason: 'PERSONAL_TRANSFERS',
  };
}

/** `sandbox`: the bench stack's sandbox (its URL and the control token's header, for the fund call). */
export function paymentSubject(
  client: Client,
  taskQueue: string,
  sandbox: { url: string; controlHeaders: Record<string, string> },
): Subject {
  return {
    kind: 'payment',
    async start(key) {
      const began = performance.now();
      const started = await startPayment(
        client,
        { paymentKey: key, request: paymentRequest(key) },
        { taskQueue },
      );
      const createdMs = performance.now() - began;
      if (started.created.outcome !== 'CREATED')
        throw new Error(`payment ${key} not created: ${JSON.stringify(started.created)}`);
      return { key, workflowId: started.workflowId, createdId: started.created.providerPaymentId, createdMs };
    },
    async fund(started) {
      await got.post(`${sandbox.url}/sandbox/payments/${started.createdId}/fund`, {
        headers: sandbox.controlHeaders,
        json: {},
        retry: { limit: 3, methods: ['POST'] },
      });
    },
    async outcome(started) {
      const result = (await client.workflow.getHandle(started.workflowId).result()) as { outcome: string };
      return result.outcome;
    },
    async noopSignal(started) {
      // a snapshot of a provider payment that is not this workflow's: absorbed as "not one of ours"
      await client.workflow.getHandle(started.workflowId).signal(providerPaymentChangedSignal, {
        providerPaymentId: 'pay_bench_probe',
        payment: { id: 'pay_bench_probe' } as never,
        cause: 'event',
      });
    },
  };
}

export function skeletonSubject(
  client: Client,
  taskQueue: string,
  kind: 'skeleton' | 'skeleton-pair' = 'skeleton',
): Subject {
  return {
    kind,
    async start(key) {
      const began = performance.now();
      const workflowId = `${kind}:${key}`;
      const createdId = await client.workflow.executeUpdateWithStart(skeletonCreatedUpdate, {
        startWorkflowOperation: new WithStartWorkflowOperation(
          kind === 'skeleton' ? SKELETON_WORKFLOW_TYPE : SKELETON_PAIR_WORKFLOW_TYPE,
          {
            workflowId,
            taskQueue,
            args: [key],
            workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          },
        ),
      });
      return { key, workflowId, createdId, createdMs: performance.now() - began };
    },
    async fund(started) {
      await client.workflow.getHandle(started.workflowId).signal(skeletonFundSignal);
    },
    async outcome(started) {
      return (await client.workflow.getHandle(started.workflowId).result()) as string;
    },
    async noopSignal(started) {
      await client.workflow.getHandle(started.workflowId).signal(skeletonNoopSignal, {});
    },
  };
}
