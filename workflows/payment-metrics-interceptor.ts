// Workflow interceptor module (bundled with workflowInterceptorModules, workers/workflow-bundle.ts): counts
// payments by outcome (issue 6, Telemetry) on the workflow metric meter, which the SDK emits only outside
// replay. The payment workflow itself is untouched: its result carries the outcome.
import { metricMeter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/** Same name as METRIC_NAMES.payments of src/telemetry/metrics.ts (workflow code may not import it). */
export const PAYMENTS_METRIC = 'xborder_payments_total';
const PAYMENT_WORKFLOW_TYPE = 'payment';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const result = await next(input);
        if (workflowInfo().workflowType === PAYMENT_WORKFLOW_TYPE) {
          const outcome = (result as { outcome?: unknown } | null)?.outcome;
          if (typeof outcome === 'string') {
            metricMeter.createCounter(PAYMENTS_METRIC, undefined, 'Payments by outcome').add(1, { outcome });
          }
        }
        return result;
      },
    },
  ],
});
