/**
 * Due jobs keyed on sandbox-clock time. Jobs are plain data (so they persist with the state); a handler
 * per kind runs them. `runDue()` fires every job that became due, in due order, each with its own due
 * instant as the logical time, so a chain of steps scheduled from a fired job stays on the logical
 * timeline after a big clock move.
 */
export interface Job {
  id: string;
  kind: string;
  dueAtMs: number;
  seq: number;
  data: Record<string, unknown>;
}

export type JobHandler = (job: Job, atMs: number) => void;

export class Scheduler {
  private jobs: Job[] = [];
  private seq = 0;
  private readonly handlers = new Map<string, JobHandler>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly nowMs: () => number) {}

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  schedule(
    kind: string,
    dueAtMs: number,
    data: Record<string, unknown>,
    id = `${kind}:${this.seq + 1}`,
  ): Job {
    const job: Job = { id, kind, dueAtMs, seq: ++this.seq, data };
    this.insert(job);
    return job;
  }

  cancel(predicate: (job: Job) => boolean): void {
    this.jobs = this.jobs.filter((j) => !predicate(j));
  }

  pending(): readonly Job[] {
    return this.jobs;
  }

  /** Fires all due jobs; re-entrant calls are ignored (the outer loop picks up newly due jobs). */
  runDue(): number {
    if (this.running) return 0;
    this.running = true;
    let fired = 0;
    try {
      for (;;) {
        const next = this.jobs[0];
        if (!next || next.dueAtMs > this.nowMs()) break;
        this.jobs.shift();
        const handler = this.handlers.get(next.kind);
        if (!handler) continue;
        fired++;
        try {
          handler(next, next.dueAtMs);
        } catch (err) {
          console.error(`[sandbox] job ${next.kind} ${next.id} failed:`, err);
        }
      }
    } finally {
      this.running = false;
    }
    return fired;
  }

  start(tickMs: number): void {
    this.stop();
    this.timer = setInterval(() => this.runDue(), tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Persisted form: the jobs and the sequence counter. */
  snapshot(): { seq: number; jobs: Job[] } {
    return { seq: this.seq, jobs: this.jobs.map((j) => ({ ...j })) };
  }

  restore(snapshot: { seq: number; jobs: Job[] }): void {
    this.seq = snapshot.seq;
    this.jobs = [];
    for (const job of snapshot.jobs) this.insert(job);
  }

  clear(): void {
    this.jobs = [];
  }

  private insert(job: Job): void {
    // Binary search on (dueAtMs, seq): due order, ties in scheduling order.
    let lo = 0;
    let hi = this.jobs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.jobs[mid]!;
      if (other.dueAtMs < job.dueAtMs || (other.dueAtMs === job.dueAtMs && other.seq < job.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.jobs.splice(lo, 0, job);
  }
}
