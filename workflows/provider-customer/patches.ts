// The providerCustomer entity's patch ids and their lifecycle: patched → deprecatePatch → removed (the rules are
// in ../provider-payment/patches.ts; docs/deployment.md, "Replay histories per build").
// | id                   | stage   | pre-patch histories kept (why it cannot move yet)                                   |
// | customer-entity-ends | patched | demo, encrypted-demo, synthetic-old-customer-entity-goes-live (runs from before it) |
// No patch for how a payload is read (build 0.3.0): the entity keeps the customer the ingress parsed, and every
// customer in the three kept histories was one CustomerSchema accepts unchanged, so no command changed.

export const CUSTOMER_PATCHES = {
  /**
   * A review that never ends must not keep the entity open forever. Runs recorded before it
   * wait 30 × linger per turn. Asked again on every turn, so a run started by the old code takes the bounded end
   * once it runs live on the new code (patched() is false only while replaying its past).
   */
  entityEnds: 'customer-entity-ends',
  /**
   * A run whose ID is not `provider-customer:<input.customerId>` fails at once, non-retryable (workflow-id-check.ts).
   * Asked only when the IDs differ, so a run under its own ID has no marker and no new command.
   */
  refusesAnotherId: 'customer-entity-refuses-another-id',
} as const;
