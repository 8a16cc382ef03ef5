/**
 * The sandbox clock: runs with real time from a movable origin, so step delays fire in real time
 * (`now = origin + realElapsed + manual advances`). It only moves forward; every dated rule of the
 * spec is applied by this clock's date.
 */
export class SandboxClock {
  private offsetMs: number;
  private readonly listeners = new Set<() => void>();

  constructor(
    start: Date = new Date(),
    private readonly realNow: () => number = Date.now,
  ) {
    this.offsetMs = start.getTime() - this.realNow();
  }

  nowMs(): number {
    return this.realNow() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves the clock to `target`; refuses to go backwards. */
  setNow(target: Date): void {
    const delta = target.getTime() - this.nowMs();
    if (!(delta >= 0)) throw new RangeError(`The clock only moves forward (now ${this.now().toISOString()})`);
    this.advance(delta);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('The clock only moves forward');
    this.offsetMs += ms;
    for (const listener of this.listeners) listener();
  }

  onMove(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Parses an ISO 8601 duration (PnDTnHnMnS, PnW) into milliseconds; months and years are refused (ambiguous). */
export function parseIsoDuration(text: string): number {
  const m =
    /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      text,
    );
  if (!m || text === 'P' || text.endsWith('T'))
    throw new RangeError(`Not an ISO 8601 duration of weeks/days/hours/minutes/seconds: ${text}`);
  const [, w, d, h, min, s] = m.map((v) => (v === undefined ? 0 : Number(v)));
  return Math.round(((((w! * 7 + d!) * 24 + h!) * 60 + min!) * 60 + s!) * 1000);
}
