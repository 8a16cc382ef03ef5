import { randomBytes } from 'node:crypto';
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
  readonly webhookSecret: string;
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
    const startMs = Math.max(restored?.clockNowMs ?? -Infinity, options.asOf?.getTime() ?? (restored ? -Infinity : Date.now()));
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
      { secret: this.webhookSecret, retryScheduleMs: options.webhookRetryScheduleMs, timeoutMs: options.webhookTimeoutMs },
      () => this.saver.saveSoon(),
    );
    this.idempotency = new IdempotencyStore(this.data.idempotency, options.idempotencyWindowMs, () => this.clock.nowMs());
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

  /** Records an event and queues one signed delivery per webhook URL. */
  emit(type: string, data: Record<string, unknown>, atMs?: number): SandboxEvent {
    // A snapshot: the stored objects keep changing after the event.
    const event: SandboxEvent = { id: this.newId('evt'), type, createdAt: this.nowIso(atMs), data: structuredClone(data) };
    this.recentEvents.push(event);
    if (this.recentEvents.length > RECENT_EVENTS) this.recentEvents.shift();
    const body = JSON.stringify(event);
    for (const url of this.options.webhookUrls) {
      const delivery: Delivery = {
        id: this.newId('dlv'),
        eventId: event.id,
        eventType: type,
        url,
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
