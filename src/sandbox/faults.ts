import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * Injected faults (control API `POST /sandbox/faults`). A fault matches a route (`"POST /v1/payments"`,
 * a template such as `"/v1/payments/:id"`, or a literal path; absent = every /v1 route) and fires with
 * probability `rate`. Kinds: `error` (respond `status`, default 500; 429 carries Retry-After), `latency`
 * (delay only), `connectionDrop` (destroy the socket). `afterCommit` performs the write first and then
 * fails the response: the ambiguous case a client must survive with its idempotency key.
 */
export const FaultSpecSchema = z.object({
  route: z.string().min(1).optional(),
  kind: z.enum(['error', 'latency', 'connectionDrop']).optional(),
  status: z.number().int().min(400).max(599).optional(),
  rate: z.number().min(0).max(1).default(1),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  afterCommit: z.boolean().default(false),
  /** How many times it may fire; absent = unlimited. */
  count: z.number().int().min(1).optional(),
});
export type FaultSpec = z.infer<typeof FaultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  kind: 'error' | 'latency' | 'connectionDrop';
  fired: number;
}

export class FaultInjector {
  private faults: Fault[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  add(spec: FaultSpec): Fault {
    const kind =
      spec.kind ?? (spec.status === undefined && spec.latencyMs !== undefined ? 'latency' : 'error');
    const fault: Fault = { ...spec, kind, id: `flt_${randomUUID().slice(0, 8)}`, fired: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): void {
    this.faults = [];
  }

  /** The faults that fire for this request (consuming their counts). */
  pick(method: string, template: string, path: string): Fault[] {
    const fired: Fault[] = [];
    for (const f of this.faults) {
      if (
        f.route !== undefined &&
        f.route !== `${method} ${template}` &&
        f.route !== template &&
        f.route !== path &&
        f.route !== `${method} ${path}`
      )
        continue;
      if (f.count !== undefined && f.fired >= f.count) continue;
      if (this.random() >= f.rate) continue;
      f.fired++;
      fired.push(f);
    }
    return fired;
  }
}
