// Unit: the workflow type name each api.ts exports is the name the worker registers (the function's name in
// workflows/index.ts): callers start and schedule by the const, so a rename of either would strand them.
import * as workflows from '../../workflows';
import { ONBOARD_CUSTOMER_WORKFLOW_TYPE } from '../../workflows/onboard-customer/api';
import { RATE_BOARD_WORKFLOW_TYPE } from '../../workflows/rate-board/api';
import { RECONCILE_PAYMENTS_WORKFLOW_TYPE } from '../../workflows/reconcile-payments/api';
import { RECONCILIATION_REPORT_WORKFLOW_TYPE } from '../../workflows/reconciliation-report/api';
import { REFRESH_QUOTES_WORKFLOW_TYPE } from '../../workflows/refresh-quotes/api';
import { REGISTER_ACCOUNT_WORKFLOW_TYPE } from '../../workflows/register-account/api';
import { TRANSFER_WORKFLOW_TYPE } from '../../workflows/transfer/api';

describe('workflow type names in api.ts', () => {
  it.each([
    [TRANSFER_WORKFLOW_TYPE, workflows.transfer],
    [ONBOARD_CUSTOMER_WORKFLOW_TYPE, workflows.onboardCustomer],
    [REGISTER_ACCOUNT_WORKFLOW_TYPE, workflows.registerAccount],
    [RATE_BOARD_WORKFLOW_TYPE, workflows.rateBoard],
    [REFRESH_QUOTES_WORKFLOW_TYPE, workflows.refreshQuotes],
    [RECONCILE_PAYMENTS_WORKFLOW_TYPE, workflows.reconcilePayments],
    [RECONCILIATION_REPORT_WORKFLOW_TYPE, workflows.reconciliationReport],
  ])('%s is the name the worker registers', (name, fn) => {
    expect(fn.name).toBe(name);
  });
});
