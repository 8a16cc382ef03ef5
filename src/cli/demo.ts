// The demo transfer of `npm start`: onboard → register → pay as one `transfer` workflow, then the
// customer's funds are "sent" through the sandbox's control API, and the payment is followed to its outcome.
import got from 'got';
import { startTransfer } from '../client/payments';
import { quoteLine } from './format-problems';
import { onboardCustomerWorkflowId } from '../../workflows/onboard-customer/api';
import { registerAccountWorkflowId } from '../../workflows/register-account/api';
import { transferStateQuery, type TransferStep } from '../../workflows/transfer/api';
import { createdAnswerQuery, type PaymentState, paymentWorkflowId } from '../../workflows/payment/api';
import { providerCustomerWorkflowId } from '../../workflows/provider-customer/api';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { getPaymentState } from '../client/payments';
import { demoAccount, demoCustomer, demoPaymentRequest } from './demo-data';
import type { LocalStack } from './stack';

export interface DemoOptions {
  log: (line: string) => void;
  uiLink: (workflowId: string) => string;
  /** Give up after this long (default 2 minutes). */
  timeoutMs?: number;
  /** start the transfer (and its payment) with `events: {}`: their outbound events go to the worker's default endpoint */
  events?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the payment's state until `done` says so; the payment workflow may not exist yet at first. */
async function waitForPayment(
  stack: LocalStack,
  workflowId: string,
  deadline: number,
  done: (state: PaymentState) => boolean,
  onPoll: (state: PaymentState | null) => Promise<void>,
): Promise<PaymentState> {
  for (;;) {
    const state = await getPaymentState(stack.client, workflowId).catch(() => null);
    await onPoll(state);
    if (state && done(state)) return state;
    if (Date.now() > deadline)
      throw new Error(
        `demo: ${workflowId} did not get there in time (phase ${state?.phase ?? 'not started'})`,
      );
    await sleep(300);
  }
}

export interface DemoResult {
  /** The payment's outcome (COMPLETED when all went well). */
  outcome: string;
  /** Every workflow the demo ran: transfer, its children and the entities they followed. */
  workflowIds: string[];
}

export async function runDemoTransfer(stack: LocalStack, options: DemoOptions): Promise<DemoResult> {
  const { log, uiLink } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const runKey = `demo-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${Math.random().toString(36).slice(2, 6)}`;
  const paymentKey = `${runKey}-payment`;
  const workflowIds = [
    onboardCustomerWorkflowId(`${runKey}-customer`),
    registerAccountWorkflowId(`${runKey}-account`),
    paymentWorkflowId(paymentKey),
  ];
  const handle = await startTransfer(
    stack.client,
    {
      transferKey: runKey,
      customer: { customerKey: `${runKey}-customer`, body: demoCustomer() },
      account: {
        accountKey: `${runKey}-account`,
        body: demoAccount(),
        requirementsQuery: { bankCountryCode: 'BR', currencyCode: 'BRL' },
        accountHolderType: 'INDIVIDUAL',
      },
      payment: { paymentKey, request: demoPaymentRequest() },
      ...(options.events ? { events: {} } : {}),
    },
    { taskQueue: stack.taskQueue },
  );
  log(`demo transfer started: ${handle.workflowId}`);
  log(`  ${uiLink(handle.workflowId)}`);

  // The transfer's steps as they happen (queried at each poll of the payment).
  const stepText: Record<TransferStep, string> = {
    ONBOARDING: `onboarding the customer (KYC): ${uiLink(`customer:${runKey}-customer`)}`,
    REGISTERING: `customer approved; registering the BRL account: ${uiLink(`account:${runKey}-account`)}`,
    PAYING: 'account registered; creating the payment',
    DONE: 'transfer done',
  };
  let lastStep: TransferStep | null = null;
  const showStep = async () => {
    const t = await handle.query(transferStateQuery).catch(() => null);
    if (t && t.step !== lastStep) {
      lastStep = t.step;
      log(`  ${stepText[t.step]}`);
    }
  };

  const workflowId = paymentWorkflowId(paymentKey);
  let printed = 0;
  const printTimeline = async (state: PaymentState | null) => {
    // the payment's own entries first: the transfer's step (DONE) follows the payment's last status
    if (state) {
      for (const entry of state.timeline.slice(printed))
        log(`  payment: ${entry.kind}${entry.detail ? ` ${entry.detail}` : ''}`);
      printed = state.timeline.length;
    }
    await showStep();
  };
  const awaiting = await waitForPayment(
    stack,
    workflowId,
    deadline,
    (s) => s.providerPaymentId !== null || s.outcome !== null,
    printTimeline,
  );
  if (awaiting.outcome)
    return { outcome: awaiting.outcome.outcome, workflowIds: [handle.workflowId, ...workflowIds] };
  workflowIds.push(providerPaymentWorkflowId(awaiting.providerPaymentId!));
  log(`payment created: ${workflowId} → provider payment ${awaiting.providerPaymentId}`);
  log(`  ${uiLink(workflowId)}`);
  const funding = (awaiting.fundingInstructions ?? {}) as Record<string, unknown>;
  const created = await stack.client.workflow
    .getHandle(workflowId)
    .query(createdAnswerQuery)
    .catch(() => null);
  log(`  ${quoteLine(awaiting.quote, created)}`);
  log(
    `  the customer sends ${String(funding.amount)} ${String(funding.currencyCode)} on ${String(funding.rail)} to ${String(funding.toAddress)}`,
  );

  await got.post(
    `${stack.sandbox.url}/sandbox/payments/${encodeURIComponent(awaiting.providerPaymentId!)}/fund`,
    { headers: stack.sandbox.controlHeaders, json: {} },
  );
  log('  funds sent (sandbox funding notice)');

  const final = await waitForPayment(stack, workflowId, deadline, (s) => s.outcome !== null, printTimeline);
  const result = (await handle.result()) as { outcome?: string; customerId?: string | null } | undefined;
  log(`transfer ${handle.workflowId} finished: ${result?.outcome ?? final.outcome!.outcome}`);
  if (result?.customerId) workflowIds.push(providerCustomerWorkflowId(result.customerId));
  return { outcome: final.outcome!.outcome, workflowIds: [handle.workflowId, ...workflowIds] };
}
