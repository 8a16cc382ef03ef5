// The payment's last command, for a payment a Nexus caller started: it tells that caller's outcome relay
// (`nexus-outcome:<owner>:<paymentKey>`, workflows/nexus-outcome) that it has ended, so the relay, which waits in its
// workflow and holds no activity slot, reads the outcome at once. Sent before the run completes: a signal sent with
// the completion would be dropped by the server (the sender must still run when it is delivered).
import { getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import { NEXUS_OWNER_MEMO, nexusOutcomeWorkflowId, paymentClosedSignal } from '../../nexus-outcome/api';

export async function tellNexusRelay(paymentKey: string): Promise<void> {
  // the owner the Nexus handler recorded at start (SECURITY.md, "Nexus"); a client's payment has none: no relay
  const owner = workflowInfo().memo?.[NEXUS_OWNER_MEMO];
  if (typeof owner !== 'string' || owner === '') return;
  try {
    // No payload: it would be encoded under this payment's codec context, not the relay's (its caller's key).
    await getExternalWorkflowHandle(nexusOutcomeWorkflowId(owner, paymentKey)).signal(paymentClosedSignal);
  } catch {
    // The one failure a signal to another workflow reports is that it is not running: no relay (its caller holds
    // xborder's keys and attached to the payment itself), or not yet (a relay started later reads the closed
    // payment at once), or already ended. Nothing to do in either case.
  }
}
