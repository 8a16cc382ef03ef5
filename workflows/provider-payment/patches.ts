// The providerPayment entity's patch ids, and where each stands in its lifecycle: patched → deprecatePatch →
// removed (docs/deployment.md, "Replay histories per build"). The entity is AUTO_UPGRADE: a running entity moves
// to a new build at its next workflow task, so a change to its commands goes behind patched(), and a patch moves
// on only when no supported run can still be in its pre-patch branch:
// - patched → deprecatePatch: once no history that took the pre-patch branch is kept in test/replay/histories
//   (no such run can still be running: every supported build's entity histories are kept there);
// - deprecatePatch → removed: once no kept history carries the patch's marker without the deprecated flag.
//
// Stage of each. Markers in the kept histories (test/replay/histories/*--providerPayment.json): entity-lean-history
// in forged-final-push and lean-history-parked; entity-confirms-final-push in forged-final-push;
// entity-no-echo-to-starter in path-cuts-created-before-follow; entity-reads-sooner-when-quiet in
// entity-reads-sooner; entity-fewer-actions (with entity-lean-history) in entity-fewer-actions-payout and
// entity-fewer-actions-expired; entity-sends-moved-after-outcome (with lean, fewer and confirms-final-push) in
// entity-sends-moved-after-outcome; none in demo, encrypted-demo, entity-continue-as-new, payment-tells-entity and
// transfer-cancelled-while-paying, which replay every pre-patch branch they reached.
// | id                             | stage   | why it cannot move yet                                                 |
// | entity-lean-history            | patched | 7 of the 9 kept histories were recorded before it                      |
// | entity-no-echo-to-starter      | patched | histories of entities a payment started with a snapshot, before it    |
// | entity-reads-sooner-when-quiet | patched | histories recorded before it (timer reads every reconcileEveryMs)      |
// | entity-accepts-unknown-values  | deprecatePatch (build 0.3.0): no kept history reached its patched() call — every   |
// |                                | payload in the 12 kept histories is a current-shape Payment the first contract     |
// |                                | accepted (checked by a probe in the read path), so none has its marker or a drop.   |
// |                                | Payloads are kept as the edge parsed them; state.ts `read` calls deprecatePatch in  |
// |                                | pre-lean runs. Removed with the pre-lean histories (their builds leaving histories/)|
// | entity-confirms-final-push     | patched | runs without its marker (all but forged-final-push) took final pushes as they came |
// | entity-fewer-actions           | patched | new in build 0.3.0: every kept history but entity-fewer-actions-* predates it |
// | entity-sends-moved-after-outcome | patched | new in build 0.3.0; deprecate once no kept history heard a late move without it |
// | entity-confirms-every-push     | patched | new: every kept history took non-final pushes as they came          |
// | entity-announces-refund-keeping-status | patched | new: kept histories recorded before it                       |
// | entity-subscriber-read-is-told | patched | new: kept histories recorded before it                               |
// | entity-finds-registration-after-linger | patched | new: kept histories recorded before it                       |
// | entity-takes-final-reads       | patched | new: kept histories held final reads for a GET                       |
// | entity-refuses-another-id      | patched | asked only by a run whose ID is not its input's (none kept); deprecate with the next build's histories |
// | entity-old-told-keeps-refund   | patched | new: asked only by a run carried over from a build before the refund rule (none kept) |
// | entity-retries-registration-lookup | patched | new: asked only after an unanswered registration lookup (none kept) |
// | entity-knows-its-readers       | patched | new: asked only for an event whose `from` the entity does not know (none kept) |
// | entity-takes-sweep-read-first  | patched | new: asked only by a fresh run whose first task holds the sweep's listing (none kept) |
// | entity-carries-registration-lookups | patched | new: asked only at continue-as-new by a run that made a registration lookup (none kept) |
// | entity-waits-for-running-payment | patched | new: asked only at a lookup answered "not yet" (none kept) |
// | entity-leaves-periodic-reads-to-sweep | patched | new: kept histories read every reconcileEveryMs past the ladder |
// | entity-no-ladder-while-subscribed | patched | new: kept histories ran the ladder while a payment subscribed   |
// Only entity-accepts-unknown-values moved (build 0.3.0). Runs of a build are gone once the build is no longer
// supported and its entity histories leave test/replay/histories; then the patches they predate move to deprecatePatch together.

/** patched() ids of changes to the entity's commands (histories recorded before them replay the old way). */
export const ENTITY_PATCHES = {
  /** an entity started with a snapshot does not signal that same snapshot back to the workflow that sent it */
  noEchoToStarter: 'entity-no-echo-to-starter',
  /** while nothing is heard the entity re-reads after 1, 5 and 15 quiet minutes (a stale entity) */
  readsSoonerWhenQuiet: 'entity-reads-sooner-when-quiet',
  /**
   * A payload the first contract refused is kept, not dropped. Deprecated (deprecatePatch in state.ts `read`):
   * every payload is kept as the edge parsed it. Implied by leanHistory.
   */
  acceptsUnknownValues: 'entity-accepts-unknown-values',
  /**
   * One marker per run: every patch above is on without a marker of its own, and the search attributes
   * and memo the starter gave are not upserted again. Each marker costs two events and a visibility write (the
   * SDK upserts TemporalChangeVersion with it). Runs recorded before it have no such marker: patched() is false on
   * their replay and each old patch is read as it was.
   */
  leanHistory: 'entity-lean-history',
  /**
   * A pushed final status is held until a GET confirms it; the GET's answer is what is kept and forwarded
   * (push-confirmation.ts). Read at each pushed final status that would be held, never under the lean
   * marker: lean runs recorded before it took such a push as it came.
   */
  confirmsFinalPush: 'entity-confirms-final-push',
  /**
   * Fewer billed actions per payment (docs/performance.md, "Actions per payment"), read once, in the run's first
   * workflow task (runs that began before it keep their ways to the end): one timer kept across the loop's waits
   * (waiter.ts) instead of a `condition` timeout after every signal; while a payment subscribes, the hourly read is
   * left to it (it reads every 6 h and tells the entity what it found) and the entity reads once a day; PaymentStatus
   * is upserted only with the values operators query (final and unknown statuses); a read the subscriber told is
   * not echoed back to it.
   */
  fewerActions: 'entity-fewer-actions',
  /**
   * A subscriber that asked for outbound events and has closed (its outcome returned) is sent the moves heard
   * after it as payment.moved_after_outcome (steps/announce-late.ts). Read only when such a move is heard, so a
   * run with no such subscriber has no marker and no new command.
   */
  sendsMovedAfterOutcome: 'entity-sends-moved-after-outcome',
  /**
   * Every push that would change what the entity holds waits for a read, not only a final status (knowledge.ts): a
   * status on the way (PENDING), a lifecycle timestamp (refundedAt on PROCESSING), a figure. Read at each such push
   * that is held, so a run that hears none has no marker; runs before it took such pushes as they came.
   */
  confirmsEveryPush: 'entity-confirms-every-push',
  /**
   * A move after the outcome is keyed by status and refund (knowledge.ts, moveKey): late funds refunded on an EXPIRED
   * payment keep the status EXPIRED and are announced all the same. Read only when such a refund is heard after the
   * outcome, so a run without one has no marker.
   */
  announcesRefundKeepingStatus: 'entity-announces-refund-keeping-status',
  /**
   * A subscriber that read the payment itself (its GET, told with `from`) told its backend what it read: that is not
   * a move after its outcome. Read only when it would skip a hand-over the older code made.
   */
  subscriberReadIsTold: 'entity-subscriber-read-is-told',
  /**
   * A fresh run (its predecessor ended after its linger) that reads a payment which may have moved after its outcome
   * looks up the closed payment's events registration (activities/late-events-activities.ts). Read only then.
   */
  findsRegistrationAfterLinger: 'entity-finds-registration-after-linger',
  /**
   * A final status that comes from our own read (`from`: the payment's GET, the reconcile sweep's listing) is taken
   * as it comes, not held for another GET: it is the service's answer to our own call. Read only for such a read.
   */
  takesFinalReads: 'entity-takes-final-reads',
  /**
   * A run whose ID is not `provider-payment:<input.providerPaymentId>` fails at once, non-retryable
   * (workflow-id-check.ts). Asked only when the IDs differ, so a run under its own ID has no marker.
   */
  refusesAnotherId: 'entity-refuses-another-id',
  /**
   * An older build's `told` (the status alone) may stand for an EXPIRED+refunded snapshot its subscriber was sent
   * (knowledge.ts, mayBeOlderTold): for a subscriber that run still had, it does (sentBeforeUpgrade); for one closed
   * before, the closed payment's registration says what it told (a lookup). Read only where the refund rule would
   * announce on such an entry, so a run without one has no marker.
   */
  oldToldKeepsRefund: 'entity-old-told-keeps-refund',
  /**
   * A registration lookup that did not answer (Temporal not answering, the payment still running) is asked again
   * at a later wake-up, a few times (steps/announce-late.ts). Read only when a lookup went unanswered.
   */
  retriesRegistrationLookup: 'entity-retries-registration-lookup',
  /**
   * Only a known reader's `from` (the reconcile sweep, a payment the entity knows) makes an event our own read
   * (knowledge.ts, readerOf); any other is a push, held for a read. Read only for an event with another `from`.
   */
  knowsItsReaders: 'entity-knows-its-readers',
  /**
   * A fresh run whose first workflow task holds the reconcile sweep's listing of the payment (a sweep tell to an
   * ended entity: activities/reconcile-activities.ts) takes that listing as its first read instead of a GET of what
   * the sweep just listed: a list answered to our own call is a read (knowledge.ts, readerOf). Read only then.
   */
  takesSweepReadFirst: 'entity-takes-sweep-read-first',
  /**
   * The registration lookups a run made, and the time before which none is asked again, are carried over
   * continue-as-new (state.ts, carriedFields), so the bound (knowledge.ts, MAX_REGISTRATION_LOOKUPS) is per following,
   * not restarted by each run. Read only at continue-as-new by a run that made a lookup.
   */
  carriesRegistrationLookups: 'entity-carries-registration-lookups',
  /**
   * A registration lookup answered "not yet" (the payment still runs) takes no try and is asked again every 6 hours
   * until the payment has closed (steps/announce-late.ts, waitsForRunningPayment); before it, 4 such answers ended
   * the lookups. Read only at such an answer.
   */
  waitsForRunningPayment: 'entity-waits-for-running-payment',
  /**
   * Past the quiet ladder the entity no longer reads every `reconcileEveryMs` (daily while a payment subscribes,
   * hourly otherwise): the reconcile Schedule's sweep finds a lost funding or final webhook within one interval
   * (quiet-reads.ts). Asked only where the older code would read or wait for that read; a caller's reconcileEveryMs
   * on the input still reads.
   */
  leavesPeriodicReadsToSweep: 'entity-leaves-periodic-reads-to-sweep',
  /**
   * No quiet-read ladder while a payment subscribes (quiet-reads.ts): the payment reads at its deadlines, every push
   * is confirmed by its own GET (not by the ladder) and the sweep finds a lost funding or final webhook. Asked only
   * where the ladder would run while a payment subscribes. Implies leavesPeriodicReadsToSweep (shipped with it).
   */
  noLadderWhileSubscribed: 'entity-no-ladder-while-subscribed',
} as const;
