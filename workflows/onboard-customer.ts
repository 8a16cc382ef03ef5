// onboardCustomer: validate (contract KYC/KYB rules) → POST /customers (key `<workflowId>:create`) → wait
// for the review outcome (webhook via the providerCustomer entity, GET when the client has one, deadline).
// ID `customer:<customerKey>` chosen by the caller.
import { condition, defineQuery, setHandler, workflowInfo } from '@temporalio/workflow';
import type { CreateCustomerRequest, Customer } from '../src/contract';
import { CustomerShape } from '../src/contract/customer-shape';
import { safeParse } from '../src/contract/plain-schema';
import { validateCustomer } from '../src/contract/validate-customer';
import { createActivities, readActivities } from './activity-options';
import { applicationFailureOf, providerViolations, parseWorkflowInput } from './failures';
import { startOrSubscribe } from './follow-entity';
import type { OnboardCustomerInput, ProviderCustomerInput } from './inputs';
import { OnboardCustomerInputShape } from './input-shapes';
import { customerChangedSignal, isReviewFinal, providerCustomerWorkflowId } from './provider-customer/api';
import { createIndexer } from './indexing';
import type { OnboardCustomerResult } from './types';

const HOUR = 60 * 60 * 1000;

export const onboardStateQuery = defineQuery<{ customer: Customer | null; lastSignal: string | null }>(
  'onboardState',
);

export async function onboardCustomer(rawInput: OnboardCustomerInput): Promise<OnboardCustomerResult> {
  const input = parseWorkflowInput(OnboardCustomerInputShape, rawInput);
  const workflowId = workflowInfo().workflowId;
  const reviewTimeoutMs = input.reviewTimeoutMs ?? 7 * 24 * HOUR;
  const reconcileEveryMs = input.reconcileEveryMs ?? HOUR;
  let customer = null as Customer | null;
  let changes = 0;
  let getSupported = true;

  let lastSignal: string | null = null;
  setHandler(onboardStateQuery, () => ({ customer, lastSignal }));
  setHandler(customerChangedSignal, ({ customer: raw }) => {
    const r = safeParse(CustomerShape, raw); // CustomerSchema's zod-free twin
    lastSignal = r.success ? `ok ${r.data.status}` : `unparsable: ${JSON.stringify(r.error.issues)}`;
    if (r.success && (!customer || !isReviewFinal(customer))) customer = r.data;
    changes++;
  });

  // 1. KYC/KYB rules first (spec: Customer; Errors 4)
  const violations = validateCustomer(input.customer, new Date());
  if (violations.length > 0) return { outcome: 'REJECTED', violations, customer: null };

  // 2. create
  try {
    customer = await createActivities.createCustomer(
      input.customer as CreateCustomerRequest,
      `${workflowId}:create`,
    );
  } catch (err) {
    const app = applicationFailureOf(err);
    if (app?.nonRetryable)
      return { outcome: 'REJECTED', violations: providerViolations(app), customer: null };
    throw err;
  }
  const id = customer.id;
  createIndexer()({ customerId: id });

  // 3. wait for the review outcome
  if (!isReviewFinal(customer)) {
    const entityInput: ProviderCustomerInput = { customerId: id, customer, subscribers: [workflowId] };
    await startOrSubscribe(
      'providerCustomer',
      providerCustomerWorkflowId(id),
      entityInput,
      `customer ${id} review`,
    );
  }
  const deadline = Date.now() + reviewTimeoutMs;
  const current = (): Customer | null => customer; // read through a function: the handler changes it
  while (!isReviewFinal(current()) && Date.now() < deadline) {
    const wait = Math.min(deadline, Date.now() + reconcileEveryMs) - Date.now();
    const seen = changes;
    if (await condition(() => changes !== seen, Math.max(1, wait))) continue;
    if (getSupported) {
      try {
        const fresh = await readActivities.getCustomer(id);
        if (!isReviewFinal(customer)) customer = fresh;
      } catch (err) {
        // GET /customers/:id is not in the spec: without it, the webhook is the only source
        if (applicationFailureOf(err)?.type === 'NOT_SUPPORTED') getSupported = false;
      }
    }
  }
  const final = customer as Customer;
  if (final.status === 'APPROVED') return { outcome: 'APPROVED', customer: final };
  if (final.status === 'REJECTED') return { outcome: 'REVIEW_REJECTED', customer: final };
  return { outcome: 'REVIEW_TIMEOUT', customer: final };
}
