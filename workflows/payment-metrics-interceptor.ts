// Workflow interceptor module (bundled with workflowInterceptorModules, workers/workflow-bundle.ts): counts
// payments by outcome on the workflow metric meter, which the SDK emits only outside
// replay. The payment workflow itself is untouched: its result carries the outcome.
import { metricMeter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { PAYMENT_WORKFLOW_TYPE } from './payment/api';

/** Same name as METRIC_NAMES.payments of src/telemetry/metrics.ts (workflow code may not import it). */
export const PAYMENTS_METRIC = 'xborder_payments_total';
/** Alerts (DOUBLE_FUNDED, FUNDED_AFTER_CANCEL, …) a payment carried on its outcome, by kind. */
export const PAYMENT_ALERTS_METRIC = 'xborder_payment_alerts_total';

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
          const alerts = (result as { alerts?: unknown } | null)?.alerts;
          if (Array.isArray(alerts)) {
            const counter = metricMeter.createCounter(
              PAYMENT_ALERTS_METRIC,
              undefined,
              'Payment alerts by kind',
            );
            for (const alert of alerts) {
              const kind = (alert as { kind?: unknown } | null)?.kind;
              if (typeof kind === 'string') counter.add(1, { kind });
            }
          }
        }
        return result;
      },
    },
  ],
});
