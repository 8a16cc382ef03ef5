// The chaos suite's traffic: a mix of payments on the demo data of the sandbox, each
// driven to its end the way a backend would, and PAYINs with their automatic conversion.
import got from 'got';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment, type PaymentRequest } from '../../src/client/payments';
import type { Random } from './random';

export type PaymentKind = 'PUSHED' | 'PULL' | 'EXPIRY_REFUND' | 'PAYOUT_FAILED';

/** What each kind must end as, workflow outcome and sandbox status alike. */
export const EXPECTED_OUTCOME: Record<PaymentKind, string> = {
  PUSHED: 'COMPLETED',
  PULL: 'COMPLETED',
  EXPIRY_REFUND: 'REFUNDED',
  PAYOUT_FAILED: 'FAILED',
};

export interface PaymentRun {
  key: string;
  kind: PaymentKind;
  workflowId: string;
  providerPaymentId: string | null;
  outcome: string | null;
  /** startPayment calls that ended without an answer and were made again with the same key */
  startRetries: number;
  /** The driver's own error (start refused, funding refused, result lost): counted, never thrown. */
  error: string | null;
  /** where the driver is (shown when the run times out): start, fund, result, done */
  stage: 'start' | 'fund' | 'result' | 'done';
  /** when the driver first called startPayment, and when the payment answered CREATED (ms since the epoch) */
  startCalledAt: number | null;
  createdAt: number | null;
}

/** A run before its start; the scenario keeps it, so a run that times out still shows how far it got. */
export function newPaymentRun(key: string, kind: PaymentKind): PaymentRun {
  return {
    key,
    kind,
    workflowId: `payment:${key}`,
    providerPaymentId: null,
    outcome: null,
    error: null,
    startRetries: 0,
    stage: 'start',
    startCalledAt: null,
    createdAt: null,
  };
}

export interface PayinRun {
  providerPaymentIds: string[];
  error: string | null;
}

/** Reference prefix of one run: the checks find the run's payments in the sandbox by it. */
export function paymentRequest(kind: PaymentKind, key: string, amount: number): PaymentRequest {
  const destination = { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' } as const;
  const base = {
    customerId: 'cus_demo_individual',
    destination,
    paymentReason: 'PERSONAL_TRANSFERS',
  } as const;
  switch (kind) {
    case 'PULL': // funds pulled at once from a virtual account: no funding step, no quote expiry
      return {
        ...base,
        source: { currencyCode: 'USDC', amount, rail: 'POLYGON', accountId: 'acc_demo_usdc_virtual' },
        reference: key,
      };
    default:
      return { ...base, source: pushedSource(amount), reference: key };
  }
}

const pushedSource = (amount: number) =>
  ({
    currencyCode: 'USDC',
    amount,
    rail: 'POLYGON',
    fromAddress: '0x1111111111111111111111111111111111111111',
  }) as const;

export function pickKind(random: Random): PaymentKind {
  const r = random.next();
  if (r < 0.45) return 'PUSHED';
  if (r < 0.7) return 'PULL';
  if (r < 0.85) return 'PAYOUT_FAILED';
  return 'EXPIRY_REFUND';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A sandbox control call (our test's own, not the system's), retried through connection drops; a 4xx is
 * final (409 when the payment already moved on) and returned.
 */
async function control(
  url: string,
  json: Record<string, unknown>,
  until: number,
  headers: Record<string, string>,
): Promise<{ statusCode: number; refunded: boolean }> {
  for (;;) {
    try {
      const response = await got.post(url, {
        headers,
        json,
        timeout: { request: 10_000 },
        retry: { limit: 0 },
        throwHttpErrors: false,
      });
      if (response.statusCode < 500)
        return { statusCode: response.statusCode, refunded: refundedIn(response.body) };
    } catch (error) {
      if (Date.now() > until) throw error;
    }
    if (Date.now() > until) throw new Error(`${url}: still failing`);
    await sleep(500);
  }
}

/** Does the control API's answer show a payment whose funds were refunded (lifecycle.refundedAt set)? */
function refundedIn(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as {
      lifecycle?: { refundedAt?: string | null };
      data?: { lifecycle?: { refundedAt?: string | null } };
    };
    return Boolean((parsed.data ?? parsed).lifecycle?.refundedAt);
  } catch {
    return false;
  }
}

/** One payment from start to outcome. `paymentKey` is what the workflow ID and the idempotency keys derive from. */
export async function drivePayment(
  stack: LocalStack,
  kind: PaymentKind,
  key: string,
  amount: number,
  /** events: started with `events: {}` (outbound events to the worker's endpoint) */
  options: { quoteValidityMs: number; deadline: number; random: Random; events?: boolean },
  run: PaymentRun = newPaymentRun(key, kind),
): Promise<PaymentRun> {
  try {
    // As a backend does: the same key again until an answer (startPayment retries only briefly itself). The
    // key makes it idempotent: a second call attaches to the first workflow.
    run.startCalledAt = Date.now();
    const started = await startUntilAnswered(
      stack,
      run,
      kind,
      amount,
      options.deadline,
      options.events === true,
    );
    run.createdAt = Date.now();
    run.workflowId = started.workflowId;
    if (started.created.outcome !== 'CREATED') {
      run.error = `not created: ${JSON.stringify(started.created).slice(0, 300)}`;
      return run;
    }
    run.providerPaymentId = started.created.providerPaymentId;
    run.stage = 'fund';
    const fundUrl = `${stack.sandbox.url}/sandbox/payments/${run.providerPaymentId}/fund`;
    if (kind === 'PUSHED') {
      await sleep(options.random.int(0, 1_000));
      await control(fundUrl, {}, options.deadline, stack.sandbox.controlHeaders);
    } else if (kind === 'PAYOUT_FAILED') {
      // Funded, then the payout fails at the provider (PENDING → FAILED, funds returned). Through the control
      // API rather than the `FAIL:` magic reference, so that the reference still names the run's payment.
      // On a loaded machine the start may outlast the quote (12 s): funds after quote expiry are refunded at once
      // (AWAITING_FUNDS + refundedAt, the workflow's REFUNDED), and a provider fails no payout whose funds it gave
      // back, so the driver does not ask it to (the sandbox's control API would, and the check would compare
      // the workflow's REFUNDED with a FAILED made after it ended).
      const funded = await control(fundUrl, {}, options.deadline, stack.sandbox.controlHeaders);
      if (!funded.refunded)
        await control(
          `${stack.sandbox.url}/sandbox/payments/${run.providerPaymentId}/fail`,
          { code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' },
          options.deadline,
          stack.sandbox.controlHeaders,
        );
    } else if (kind === 'EXPIRY_REFUND') {
      // Funds sent after the quote expired: the provider refunds them.
      await sleep(options.quoteValidityMs + 1_500);
      await control(fundUrl, {}, options.deadline, stack.sandbox.controlHeaders);
    }
    run.stage = 'result';
    run.outcome = await resultUntilAnswered(stack, run.workflowId, options.deadline);
    run.stage = 'done';
  } catch (error) {
    run.error = String(error).slice(0, 300);
  }
  return run;
}

/**
 * The workflow's outcome, asked again while the server cannot answer (SIGKILLed, PostgreSQL down: "Failed to get
 * Workflow execution history"), as a backend waiting for it would; a failed workflow is an answer.
 */
async function resultUntilAnswered(stack: LocalStack, workflowId: string, deadline: number): Promise<string> {
  for (;;) {
    try {
      const outcome = (await stack.client.workflow.getHandle(workflowId).result()) as { outcome: string };
      return outcome.outcome;
    } catch (error) {
      if (error instanceof WorkflowFailedError || Date.now() > deadline) throw error;
      await sleep(1_000);
    }
  }
}

async function startUntilAnswered(
  stack: LocalStack,
  run: PaymentRun,
  kind: PaymentKind,
  amount: number,
  deadline: number,
  events: boolean,
) {
  for (;;) {
    try {
      return await startPayment(
        stack.client,
        // Reconcile often: a dropped or late webhook is found by GET within seconds, not an hour.
        {
          paymentKey: run.key,
          request: paymentRequest(kind, run.key, amount),
          options: { reconcileEveryMs: 3_000 },
          ...(events ? { events: {} } : {}),
        },
        { taskQueue: stack.taskQueue },
      );
    } catch (error) {
      // A refusal is an answer; anything else (no worker, server restarting) is asked again.
      if (error instanceof WorkflowUpdateFailedError || Date.now() > deadline) throw error;
      run.startRetries++;
      await sleep(1_000);
    }
  }
}

/** A deposit to the auto-converting virtual account: a PAYIN and its conversion that nobody here started. */
export async function drivePayin(stack: LocalStack, amount: number, deadline: number): Promise<PayinRun> {
  for (;;) {
    try {
      const body = await got
        .post(`${stack.sandbox.url}/sandbox/accounts/acc_demo_usd_autoconvert/deposit`, {
          headers: stack.sandbox.controlHeaders,
          json: { amount },
          timeout: { request: 10_000 },
          retry: { limit: 0 },
        })
        .json<{ payin?: { id: string }; conversion?: { id: string } | null }>();
      return {
        providerPaymentIds: [body.payin?.id, body.conversion?.id].filter((id): id is string => !!id),
        error: null,
      };
    } catch (error) {
      if (Date.now() > deadline) return { providerPaymentIds: [], error: String(error).slice(0, 300) };
      await sleep(500);
    }
  }
}
