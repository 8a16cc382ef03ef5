import { createHash, randomBytes } from 'node:crypto';
import { SandboxClock } from './clock';
import { FaultInjector } from './faults';
import { IdempotencyStore } from './http/idempotency';
import { RateLimiter } from './http/rate-limit';
import { type ResolvedOptions } from './options';
import { DebouncedSaver } from './persistence';
import { Scheduler } from './scheduler';
import { emptyData, type SandboxData } from './state';
import { type Delivery, WebhookDispatcher } from './webhooks/delivery';
import { generateWebhookSecret } from './webhooks/signing';

export interface SandboxEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

const RECENT_EVENTS = 1000;

/** The sandbox's state and machinery, shared by the routes and the domain modules. */
export class SandboxCore {
  readonly clock: SandboxClock;
  readonly scheduler: Scheduler;
  readonly faults = new FaultInjector();
  /** The signing secret of every attempt from now on (rotated by PUT /sandbox/webhook-secret). */
  webhookSecret: string;
  readonly webhooks: WebhookDispatcher;
  readonly idempotency: IdempotencyStore;
  readonly rateLimiter: RateLimiter | null;
  readonly saver: DebouncedSaver;
  /** The last events emitted (GET /sandbox/events), newest last; not persisted. */
  readonly recentEvents: SandboxEvent[] = [];
  data: SandboxData;

  constructor(
    readonly options: ResolvedOptions,
    restored: SandboxData | null,
  ) {
    // A restored clock resumes where it stopped (the downtime does not count); --as-of may only move it forward.
    const startMs = Math.max(
      restored?.clockNowMs ?? -Infinity,
      options.asOf?.getTime() ?? (restored ? -Infinity : Date.now()),
    );
    this.clock = new SandboxClock(new Date(startMs));
    this.scheduler = new Scheduler(() => this.clock.nowMs());
    this.data = restored ?? emptyData(startMs);
    if (restored) this.scheduler.restore(restored.scheduler);
    this.webhookSecret = options.webhookSecret ?? generateWebhookSecret();
    this.saver = new DebouncedSaver(options.dataFile, () => this.snapshot());
    this.webhooks = new WebhookDispatcher(
      () => this.data.deliveries,
      this.scheduler,
      () => this.clock.nowMs(),
      {
        secret: () => this.webhookSecret,
        retryScheduleMs: options.webhookRetryScheduleMs,
        timeoutMs: options.webhookTimeoutMs,
      },
      () => this.saver.saveSoon(),
    );
    this.idempotency = new IdempotencyStore(this.data.idempotency, options.idempotencyWindowMs, () =>
      this.clock.nowMs(),
    );
    this.rateLimiter = options.rateLimit ? new RateLimiter(options.rateLimit) : null;
    // spec: POST /sandbox/clock fires everything that became due.
    this.clock.onMove(() => this.scheduler.runDue());
  }

  now(): Date {
    return this.clock.now();
  }

  nowIso(atMs?: number): string {
    return new Date(atMs ?? this.clock.nowMs()).toISOString();
  }

  newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString('base64url')}`;
  }

  /** Records an event and queues its signed deliveries: one per webhook URL, or one spread over them. */
  emit(type: string, data: Record<string, unknown>, atMs?: number): SandboxEvent {
    // A snapshot: the stored objects keep changing after the event.
    const event: SandboxEvent = {
      id: this.newId('evt'),
      type,
      createdAt: this.nowIso(atMs),
      data: structuredClone(data),
    };
    this.recentEvents.push(event);
    if (this.recentEvents.length > RECENT_EVENTS) this.recentEvents.shift();
    const body = JSON.stringify(event);
    for (const targets of this.deliveryTargets(event.id)) {
      const delivery: Delivery = {
        id: this.newId('dlv'),
        eventId: event.id,
        eventType: type,
        url: targets[0]!,
        ...(targets.length > 1 ? { targets } : {}),
        body,
        state: 'pending',
        attempts: [],
        nextAttemptAt: null,
        createdAt: event.createdAt,
      };
      this.webhooks.enqueue(delivery);
    }
    this.saver.saveSoon();
    return event;
  }

  /**
   * Broadcast: each URL its own delivery. Spread: one delivery whose first URL is picked by the event id's hash
   * (even over the URLs, the same after a restart), the others after it in order, for the retries.
   */
  private deliveryTargets(eventId: string): string[][] {
    const urls = this.options.webhookUrls;
    if (this.options.webhookDelivery === 'broadcast' || urls.length < 2) return urls.map((url) => [url]);
    const first = createHash('sha256').update(eventId).digest().readUInt32BE(0) % urls.length;
    return [[...urls.slice(first), ...urls.slice(0, first)]];
  }

  snapshot(): SandboxData {
    return { ...this.data, clockNowMs: this.clock.nowMs(), scheduler: this.scheduler.snapshot() };
  }

  /** POST /sandbox/reset: everything but the clock, the options and the faults. */
  reset(): void {
    this.data = emptyData(this.clock.nowMs());
    this.scheduler.clear();
    this.idempotency.replaceRecords(this.data.idempotency);
    this.rateLimiter?.reset();
    this.recentEvents.length = 0;
    this.saver.saveSoon();
  }
}
