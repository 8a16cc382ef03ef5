// One timer per wait. Every timer a workflow starts is a billed Temporal action (docs/performance.md, "Actions per
// payment"), and `condition(fn, timeout)` starts one at each call: a loop that waits again after every signal pays a
// timer per signal, though its due time rarely moves. A Waiter keeps one timer across the loop's turns and races it
// with `condition(fn)` (no timeout: no timer). A turn whose due time is at or after the running timer's waits on
// that timer (it may fire early: the loop then looks again and waits for the rest); only an earlier due time
// replaces it (the old one is cancelled: a cancelled timer is not billed).
import { CancellationScope, condition, sleep } from '@temporalio/workflow';

interface RunningTimer {
  readonly dueAt: number;
  readonly scope: CancellationScope;
  readonly fired: Promise<void>;
}

/** One per workflow run (no module state: workflow modules may be shared between runs). */
export class Waiter {
  private timer: RunningTimer | null = null;

  /** Resolves once `fn` is true or the clock reaches `dueAt` (or a running timer due earlier fires). */
  async until(fn: () => boolean, dueAt?: number): Promise<void> {
    if (fn()) return;
    const scope = new CancellationScope();
    const waits: Promise<unknown>[] = [scope.run(() => condition(fn))];
    if (dueAt !== undefined) waits.push(this.timerFor(dueAt));
    try {
      await Promise.race(waits);
    } finally {
      scope.cancel(); // the condition that lost the race is dropped, not left to run at every activation
    }
  }

  private timerFor(dueAt: number): Promise<void> {
    const running = this.timer;
    if (running && running.dueAt <= dueAt) return running.fired;
    running?.scope.cancel();
    const scope = new CancellationScope();
    const ms = Math.max(1, dueAt - Date.now());
    const timer: { current?: RunningTimer } = {};
    // fired, or cancelled (replaced by an earlier one, or the run is being cancelled): no longer the running timer
    const done = (): void => {
      if (this.timer === timer.current) this.timer = null;
    };
    const fired = scope.run(() => sleep(ms)).then(done, done);
    timer.current = { dueAt, scope, fired };
    this.timer = timer.current;
    return fired;
  }
}
