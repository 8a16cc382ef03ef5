// What the ingress admits at once (the reasons are beside the defaults in node-server.ts): webhooks waiting on
// Temporal, in slots with a line behind them, and body bytes held in memory, one budget for the whole process.

/** At most `max` webhooks wait on Temporal; the others wait in line, first come first served, up to `maxWaitMs`. */
export class Slots {
  inFlight = 0;
  /** webhooks answered 503 after waiting `maxWaitMs` in line (shown by /health) */
  overloaded = 0;
  /** waiting for a slot, first come first served */
  private readonly line: Array<() => void> = [];

  constructor(
    readonly max: number,
    readonly maxWaitMs: number,
  ) {}

  get waiting(): number {
    return this.line.length;
  }

  /** A slot, at once or after waiting in line; false when none came free within `maxWaitMs`. */
  acquire(): Promise<boolean> {
    if (this.inFlight < this.max) {
      this.inFlight++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const take = () => {
        clearTimeout(timer);
        this.inFlight++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.line.splice(this.line.indexOf(take), 1);
        resolve(false);
      }, this.maxWaitMs);
      this.line.push(take);
    });
  }

  release(): void {
    this.inFlight--;
    this.line.shift()?.();
  }
}

/**
 * Body bytes held now, every request together, within `maxBuffered`; a body over `ordinaryBodyBytes` may only use
 * 7/8 of it, so a few slow large uploads cannot take the room ordinary webhooks need.
 */
export class BodyBudget {
  /** body bytes held now, every request together */
  buffered = 0;
  /** requests refused because the budget was spent (shown by /health) */
  overBudget = 0;
  private readonly largeBodiesBudget: number;

  constructor(
    private readonly maxBuffered: number,
    private readonly ordinaryBodyBytes: number,
  ) {
    this.largeBodiesBudget = maxBuffered - Math.floor(maxBuffered / 8);
  }

  /** One request's share of the budget. */
  forRequest(): RequestBytes {
    let held = 0;
    return {
      held: () => held,
      reserve: (more) => {
        const limit = held + more > this.ordinaryBodyBytes ? this.largeBodiesBudget : this.maxBuffered;
        if (this.buffered + more > limit) return false;
        this.buffered += more;
        held += more;
        return true;
      },
      release: () => {
        this.buffered -= held;
        held = 0;
      },
    };
  }
}

export interface RequestBytes {
  held(): number;
  /** Takes `more` bytes of the budget for this request, or false when the budget cannot give them. */
  reserve(more: number): boolean;
  /** Gives every byte this request holds back to the budget. */
  release(): void;
}
