// onboardCustomer: check the KYC/KYB rules (a local activity: the contract's dated rules, spec: Customer; Errors 4)
// → POST /customers (key `<workflowId>:create`) → wait for the review outcome (webhook via the providerCustomer
// entity, GET when the client has one, deadline). ID `customer:<customerKey>` chosen by the caller, whose input is
// already parsed (src/client, the CLI: zod at the edge). PINNED: a change ships as a new build, never a patch.
import { setHandler, workflowInfo } from '@temporalio/workflow';
import { contractActivities } from '../activity-options';
import { startOrSubscribe } from '../follow-entity';
import type { ProviderCustomerInput } from '../inputs';
import {
  customerChangedSignal,
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
} from '../provider-customer/api';
import { createIndexer } from '../indexing';
import { refuseInputOfAnotherWorkflow } from '../workflow-id-check';
import {
  onboardCustomerWorkflowId,
  onboardStateQuery,
  type OnboardCustomerInput,
  type OnboardCustomerResult,
} from './api';
import { OnboardProgress } from './state';
import { createCustomer } from './steps/create';
import { awaitReview } from './steps/await-review';

const HOUR = 60 * 60 * 1000;

export async function onboardCustomer(input: OnboardCustomerInput): Promise<OnboardCustomerResult> {
  const workflowId = workflowInfo().workflowId;
  refuseInputOfAnotherWorkflow(onboardCustomerWorkflowId(input.customerKey), workflowId); // workflow-id-check.ts
  const progress = new OnboardProgress();
  setHandler(onboardStateQuery, () => progress.snapshot());
  setHandler(customerChangedSignal, ({ customer }) => progress.onCustomerChanged(customer));

  // 1. KYC/KYB rules first, at workflow time (spec: Customer; Errors 4)
  const asOf = new Date(Date.now()).toISOString();
  const violations = await contractActivities.validateCustomerBody(input.customer, asOf);
  if (violations.length > 0) return { outcome: 'REJECTED', violations, customer: null };

  // 2. create
  const created = await createCustomer(input.customer, workflowId);
  if ('violations' in created) return { outcome: 'REJECTED', violations: created.violations, customer: null };
  progress.onRead(created.customer);
  const id = created.customer.id;
  createIndexer()({ customerId: id });

  // 3. wait for the review outcome
  if (!progress.reviewFinal()) {
    const entityInput: ProviderCustomerInput = {
      customerId: id,
      customer: created.customer,
      subscribers: [workflowId],
    };
    // The review entity ignores a Temporal cancel of this run (ABANDON on cancel): it is shared with webhooks and
    // other subscribers and ends by itself (what build 0.2.0 chose for new runs behind a patch, now unconditional).
    await startOrSubscribe(
      PROVIDER_CUSTOMER_WORKFLOW_TYPE,
      providerCustomerWorkflowId(id),
      entityInput,
      `customer ${id} review`,
      {
        abandonOnCancel: true,
      },
    );
  }
  await awaitReview(progress, id, input.reviewTimeoutMs ?? 7 * 24 * HOUR, input.reconcileEveryMs ?? HOUR);
  const final = progress.customer ?? created.customer;
  if (final.status === 'APPROVED') return { outcome: 'APPROVED', customer: final };
  if (final.status === 'REJECTED') return { outcome: 'REVIEW_REJECTED', customer: final };
  return { outcome: 'REVIEW_TIMEOUT', customer: final };
}
