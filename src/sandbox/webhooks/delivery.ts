import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Scheduler } from '../scheduler';
import { webhookHeaders } from './signing';

export interface DeliveryAttempt {
  at: string;
  /** where this attempt went (a spread delivery moves to the next URL after a failure) */
  url?: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** One event to one endpoint, with every attempt logged (GET /sandbox/webhooks). */
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  /** the URL of the latest attempt (the first one before any) */
  url: string;
  /**
   * Spread delivery (SandboxOptions.webhookDelivery): the receiver's URLs, this event's first choice first; attempt
   * n goes to targets[n % length], so a retry after a failure goes to another replica.
   */
  targets?: string[];
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface WebhookDispatcherOptions {
  /** Read at each attempt: the secret can be rotated while deliveries are pending (PUT /sandbox/webhook-secret). */
  secret: () => string;
  /** Delays between attempts (after the first, immediate one); the last failure marks the delivery failed. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
}

const JOB_KIND = 'webhook.attempt';

/**
 * At-least-once delivery with retries on non-2xx and network errors (gap: Events 5). Attempts are scheduler
 * jobs on the sandbox clock, so moving the clock fires due retries. Each attempt is signed afresh with the
 * real wall-clock time as `webhook-timestamp` (receivers check it against their own clock), while the
 * event's `createdAt` is sandbox time. Attempts run concurrently, so order is not guaranteed.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly deliveries: () => Record<string, Delivery>,
    private readonly scheduler: Scheduler,
    private readonly nowMs: () => number,
    private readonly options: WebhookDispatcherOptions,
    private readonly onChange: () => void,
  ) {
    scheduler.on(JOB_KIND, (job) => this.attempt(String(job.data.deliveryId)));
  }

  enqueue(delivery: Delivery): void {
    this.deliveries()[delivery.id] = delivery;
    this.schedule(delivery, this.nowMs());
  }

  /** After a restart: every pending delivery without a scheduled attempt is attempted now. */
  resumePending(): void {
    const scheduled = new Set(
      this.scheduler
        .pending()
        .filter((j) => j.kind === JOB_KIND)
        .map((j) => String(j.data.deliveryId)),
    );
    for (const d of Object.values(this.deliveries()))
      if (d.state === 'pending' && !scheduled.has(d.id)) this.schedule(d, this.nowMs());
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private schedule(delivery: Delivery, atMs: number): void {
    delivery.nextAttemptAt = new Date(atMs).toISOString();
    this.scheduler.schedule(JOB_KIND, atMs, { deliveryId: delivery.id });
  }

  private attempt(deliveryId: string): void {
    const delivery = this.deliveries()[deliveryId];
    if (!delivery || delivery.state !== 'pending' || this.closed) return;
    delivery.nextAttemptAt = null;
    const p = this.send(delivery).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async send(delivery: Delivery): Promise<void> {
    const started = Date.now();
    const at = new Date(this.nowMs()).toISOString();
    let status: number | null = null;
    let error: string | null = null;
    const targets = delivery.targets;
    const url =
      targets && targets.length > 0 ? targets[delivery.attempts.length % targets.length]! : delivery.url;
    delivery.url = url;
    try {
      status = await post(
        url,
        delivery.body,
        webhookHeaders(this.options.secret(), delivery.eventId, Math.floor(Date.now() / 1000), delivery.body),
        this.options.timeoutMs,
      );
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (err) {
      error = (err as Error).message || String(err);
    }
    // A reset() may have dropped this delivery while the attempt was in flight.
    if (this.deliveries()[delivery.id] !== delivery) return;
    delivery.attempts.push({ at, url, status, error, durationMs: Date.now() - started });
    if (error === null) delivery.state = 'delivered';
    else {
      const delay = this.options.retryScheduleMs[delivery.attempts.length - 1];
      if (delay === undefined || this.closed) delivery.state = delay === undefined ? 'failed' : 'pending';
      else this.schedule(delivery, this.nowMs() + delay);
    }
    this.onChange();
  }
}

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'xborder-sandbox',
          ...headers,
        },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
