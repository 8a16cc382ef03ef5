/**
 * A bounded memory of event ids already accepted, so that a redelivered webhook is answered 200 without a
 * second signal. Best effort only (lost on restart, per process): the entity workflows drop duplicates by
 * event id too, which is the guarantee (ARCHITECTURE: "events are deduplicated by their id inside the workflow").
 */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 10_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value as string;
      this.ids.delete(oldest);
    }
  }

  get size(): number {
    return this.ids.size;
  }
}
