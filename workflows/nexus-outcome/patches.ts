// The nexusOutcome relay's patch ids, and where each stands in its lifecycle: patched → deprecatePatch → removed
// (docs/deployment.md, "Replay histories per build"; the convention of workflows/provider-payment/patches.ts). The
// relay is AUTO_UPGRADE: a running relay moves to a new build at its next workflow task, so a change to its commands
// goes behind patched(), and a patch moves on only when no supported run can still be in its pre-patch branch.
//
// Stage of each. Kept histories (test/replay/histories/*--nexusOutcome.json): encrypted-nexus-outcome, recorded
// before relay-holds-no-slot (one awaitPaymentOutcome, no marker); encrypted-nexus-outcome-signalled, with its marker
// (a read, a wait cut short by the payment's signal, a read of the outcome).
// | id                   | stage   | why it cannot move yet                                                     |
// | relay-holds-no-slot  | patched | new: the kept encrypted-nexus-outcome history waited in awaitPaymentOutcome |

/** patched() ids of changes to the relay's commands (histories recorded before them replay the old way). */
export const NEXUS_OUTCOME_PATCHES = {
  /**
   * The relay holds no activity slot while the payment runs: a read that never waits (readPaymentOutcome), then a
   * wait in the workflow for the payment's `paymentClosed` signal, re-reading every FALLBACK_READ_EVERY (12 h) for payments
   * of builds that never signal. Asked before each read, so a relay that began before it (long-polling in
   * awaitPaymentOutcome) moves over after its current wait.
   */
  holdsNoSlot: 'relay-holds-no-slot',
} as const;
