import { createHash } from 'node:crypto';
import { ApiError } from './api-error';
import { type Reply } from './router';

/** A stored first response (gap: effect of repeating an idempotency key; see docs/spec-gaps.md). */
export interface IdempotencyRecord {
  fingerprint: string;
  createdAtMs: number;
  status: number;
  body: unknown;
}

/**
 * Same key + same body → the first response replayed (status and body, header `Idempotent-Replayed: true`);
 * same key + another body → 409 IDEMPOTENCY_CONFLICT; concurrent requests with one key share one execution.
 * Keys are scoped by API key and route; records live `windowMs` of sandbox-clock time (default 24 h).
 * Responses with status ≥ 500 are not stored, so a retry after a server error runs again.
 */
export class IdempotencyStore {
  private inFlight = new Map<string, { fingerprint: string; promise: Promise<Reply> }>();
  private insertsSinceSweep = 0;

  constructor(
    private records: Record<string, IdempotencyRecord>,
    private readonly windowMs: number,
    private readonly nowMs: () => number,
  ) {}

  async run(scope: string, key: string, body: unknown, execute: () => Promise<Reply>): Promise<Reply> {
    const id = `${scope}|${key}`;
    const fingerprint = fingerprintOf(body);
    const existing = this.records[id];
    if (existing && this.nowMs() - existing.createdAtMs > this.windowMs) delete this.records[id];
    const stored = this.records[id];
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw conflict(key);
      return { status: stored.status, body: stored.body, headers: { 'idempotent-replayed': 'true' } };
    }
    const running = this.inFlight.get(id);
    if (running) {
      if (running.fingerprint !== fingerprint) throw conflict(key);
      const reply = await running.promise;
      return { ...reply, headers: { ...reply.headers, 'idempotent-replayed': 'true' } };
    }
    const promise = execute();
    this.inFlight.set(id, { fingerprint, promise });
    try {
      const reply = await promise;
      if (reply.status < 500) {
        this.records[id] = { fingerprint, createdAtMs: this.nowMs(), status: reply.status, body: reply.body };
        if (++this.insertsSinceSweep >= 1000) this.sweep();
      }
      return reply;
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** Drops records older than the window. */
  sweep(): void {
    this.insertsSinceSweep = 0;
    const now = this.nowMs();
    for (const [id, r] of Object.entries(this.records))
      if (now - r.createdAtMs > this.windowMs) delete this.records[id];
  }

  replaceRecords(records: Record<string, IdempotencyRecord>): void {
    this.records = records;
    this.inFlight = new Map();
  }
}

function conflict(key: string): ApiError {
  return new ApiError(
    409,
    'IDEMPOTENCY_CONFLICT',
    `Idempotency key ${key} was already used with a different body`,
    [
      {
        path: 'X-Idempotency-Key',
        rule: 'idempotency.bodyMismatch',
        message: 'Use a new idempotency key for a different request',
      },
    ],
  );
}

/** Canonical JSON (sorted keys) hashed, so key order in the body does not matter. */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
