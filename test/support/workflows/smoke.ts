// A tiny workflow used only by the foundation test: proves that the dev server and the
// time-skipping server both run real workflows, and that a long timer is skipped.
import { sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { PaymentPhaseKey } from '../../../workflows/search-attributes';

export async function sleepyGreeting(name: string, sleepMs: number): Promise<string> {
  await sleep(sleepMs);
  return `hello ${name} from ${workflowInfo().workflowType}`;
}

export async function tagWithPhase(phase: string): Promise<string> {
  upsertSearchAttributes([{ key: PaymentPhaseKey, value: phase }]);
  return phase;
}
