// The providerPayment entity's patch ids, and where each stands in its lifecycle: patched → deprecatePatch →
// removed (docs/deployment.md, "Replay histories per build"). The entity is AUTO_UPGRADE: a running entity moves
// to a new build at its next workflow task, so a change to its commands goes behind patched(), and a patch moves
// on only when no supported run can still be in its pre-patch branch:
// - patched → deprecatePatch: once no history that took the pre-patch branch is kept in test/replay/histories
//   (no such run can still be running: every supported build's entity histories are kept there);
// - deprecatePatch → removed: once no kept history carries the patch's marker without the deprecated flag.
//
// Stage of each (checked against the kept histories; a run without the marker is the pre-patch branch):
// | id                               | stage   | pre-patch histories kept (why it cannot move yet)                       |
// | entity-lean-history              | patched | demo, encrypted-demo, entity-continue-as-new, payment-tells-entity, …   |
// | entity-no-echo-to-starter        | patched | demo, encrypted-demo, transfer-cancelled-while-paying                   |
// | entity-reads-sooner-when-quiet   | patched | demo, encrypted-demo, entity-continue-as-new                            |
// | entity-accepts-unknown-values    | patched | every history without entity-lean-history (read only for old-contract payloads) |
// | entity-confirms-final-push       | patched | lean-history-parked, path-cuts-created-before-follow (lean, before it)  |
// None can move this round: every one still has runs recorded before it in the kept histories.

/** patched() ids of changes to the entity's commands (histories recorded before them replay the old way). */
export const ENTITY_PATCHES = {
  /** an entity started with a snapshot does not signal that same snapshot back to the workflow that sent it */
  noEchoToStarter: 'entity-no-echo-to-starter',
  /** while nothing is heard the entity re-reads after 1, 5 and 15 quiet minutes (issue 15, stale entity) */
  readsSoonerWhenQuiet: 'entity-reads-sooner-when-quiet',
  /**
   * A payload the contract before issue 9 refused (legacy-payloads.ts, refusedByOldContract) is kept, not dropped.
   * Implied by leanHistory.
   */
  acceptsUnknownValues: 'entity-accepts-unknown-values',
  /**
   * Issue 12, one marker per run: every patch above is on without a marker of its own, and the search attributes
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
} as const;
