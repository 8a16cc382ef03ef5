import { ApiError } from './api-error';

export interface RateLimitConfig {
  requests: number;
  windowMs: number;
}

/**
 * Fixed-window counter per API key (gap: rate-limit numbers; default 100 requests per 10 s).
 * Windows run on real time, not the sandbox clock, so moving the clock does not reset them.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly realNow: () => number = Date.now,
  ) {}

  /** Counts one request; throws 429 RATE_LIMITED with Retry-After (whole seconds) when over the limit. */
  hit(key: string): void {
    const now = this.realNow();
    let window = this.windows.get(key);
    if (!window || now - window.startMs >= this.config.windowMs) {
      window = { startMs: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > this.config.requests) {
      const retryAfter = Math.max(1, Math.ceil((window.startMs + this.config.windowMs - now) / 1000));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Rate limit of ${this.config.requests} requests per ${this.config.windowMs} ms exceeded`,
        [],
        {
          'retry-after': String(retryAfter),
        },
      );
    }
  }

  reset(): void {
    this.windows.clear();
  }
}
