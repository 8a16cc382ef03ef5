// A customer's job for the fairness test: the `order` sink notes when its first workflow task ran,
// then one activity notes when it ran.
import { proxyActivities, proxySinks, type Sinks } from '@temporalio/workflow';

export interface FairnessActivities {
  record(customer: string): Promise<void>;
}

export interface FairnessSinks extends Sinks {
  order: { workflowTask(customer: string): void };
}

const { record } = proxyActivities<FairnessActivities>({ startToCloseTimeout: '1m' });
const { order } = proxySinks<FairnessSinks>();

export async function customerJob(customer: string): Promise<void> {
  order.workflowTask(customer);
  await record(customer);
}
