import { PAYMENT_STATUSES } from '../../contract/enums';
import { z } from 'zod';
import { FAILURE_CODES, zodIssuesToViolations } from '../../contract';
import { parseIsoDuration } from '../clock';
import { FaultSpecSchema } from '../faults';
import { validationError } from '../http/api-error';
import { Router } from '../http/router';
import { knownSecretReason } from '../../security/known-secrets';
import { type Services } from './api';

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(zodIssuesToViolations(parsed.error));
  return parsed.data;
}

const ClockBodySchema = z.union([
  z.object({ now: z.iso.datetime() }).strict(),
  z.object({ advance: z.string().min(2) }).strict(),
]);
const FundBodySchema = z.object({
  sentAt: z.iso.datetime().optional(),
  amount: z.number().positive().optional(),
  transactionHash: z.string().optional(),
});
const FailBodySchema = z.object({ code: z.enum(FAILURE_CODES) });
/** a status the contract does not name (an upper-case word), never one it does */
const HoldBodySchema = z.object({
  status: z
    .string()
    .regex(/^[A-Z][A-Z_]{1,39}$/)
    .refine(
      (s) => !(PAYMENT_STATUSES as readonly string[]).includes(s),
      'a status the contract names: use the other control routes',
    ),
});
const ReviewBodySchema = z.object({ outcome: z.enum(['APPROVED', 'REJECTED']) });
// Standard Webhooks secrets (docs/spec-gaps.md, Events 5): whsec_ and a base64 key of 24 bytes or more.
const WebhookSecretBodySchema = z
  .object({
    secret: z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'whsec_<base64 of 24 bytes or more>'),
  })
  .strict();
const DepositBodySchema = z.object({
  amount: z.number().positive(),
  fromAccountNumber: z.string().optional(),
  fromAddress: z.string().optional(),
});

/** Simulation controls outside /v1 (docs/sandbox.md, "Control API"). */
export function controlRouter(s: Services, openapi: () => unknown): Router {
  const { core } = s;
  const r = new Router();
  addClockRoutes(r, core);
  addEntityRoutes(r, s);
  addWebhookRoutes(r, core);
  addFaultRoutes(r, core);
  r.get('/sandbox/fixtures', () => ok({ data: core.data.fixtures }));
  r.get('/openapi.json', () => ok(openapi()));
  return r;
}

const ok = (body: unknown) => ({ status: 200, body });

/** Health, reset and the sandbox clock (set or advanced, forward only). */
function addClockRoutes(r: Router, core: Services['core']): void {
  r.get('/sandbox/health', () =>
    ok({ status: 'ok', now: core.nowIso(), pendingJobs: core.scheduler.pending().length }),
  );
  r.post('/sandbox/reset', () => {
    core.reset();
    return ok({ status: 'reset', now: core.nowIso() });
  });
  r.get('/sandbox/clock', () => ok({ now: core.nowIso() }));
  r.post('/sandbox/clock', ({ body }) => {
    const b = parse(ClockBodySchema, body);
    const before = core.clock.nowMs();
    try {
      if ('now' in b) core.clock.setNow(new Date(b.now));
      else core.clock.advance(parseIsoDuration(b.advance));
    } catch (err) {
      if (err instanceof RangeError)
        throw validationError([
          { path: 'now' in b ? 'now' : 'advance', rule: 'CLOCK_FORWARD_ONLY', message: err.message },
        ]);
      throw err;
    }
    return ok({ now: core.nowIso(), previous: new Date(before).toISOString() });
  });
}

/** What the service's counterparties would do: fund, fail, hold or return a payment, review, deposit. */
function addEntityRoutes(r: Router, s: Services): void {
  const { core, customers, payments } = s;
  r.post('/sandbox/payments/:id/fund', ({ params, body }) =>
    ok(payments.present(payments.fund(params.id!, parse(FundBodySchema, body)), true)),
  );
  r.post('/sandbox/payments/:id/fail', ({ params, body }) =>
    ok(payments.present(payments.fail(params.id!, parse(FailBodySchema, body).code), true)),
  );
  r.post('/sandbox/payments/:id/hold', ({ params, body }) =>
    ok(payments.present(payments.holdUnder(params.id!, parse(HoldBodySchema, body).status), true)),
  );
  r.post('/sandbox/payments/:id/return', ({ params }) =>
    ok(payments.present(payments.returnFunds(params.id!), true)),
  );
  r.post('/sandbox/customers/:id/review', ({ params, body }) =>
    ok(customers.review(params.id!, parse(ReviewBodySchema, body).outcome)),
  );
  r.post('/sandbox/accounts/:id/deposit', ({ params, body }) => {
    const { payin, deposit, conversion } = s.deposits.deposit(params.id!, parse(DepositBodySchema, body));
    return {
      status: 201,
      body: {
        payin: payin ? payments.present(payin, true) : null,
        deposit,
        conversion: conversion ? payments.present(conversion, true) : null,
        balance: core.data.balances[params.id!],
      },
    };
  });
  r.get('/sandbox/balances', () => ok({ data: core.data.balances }));
}

/** The webhooks sent, the recent events and the signing secret. */
function addWebhookRoutes(r: Router, core: Services['core']): void {
  r.get('/sandbox/webhooks', ({ query }) => {
    const eventType = query.get('eventType');
    const state = query.get('state');
    const list = Object.values(core.data.deliveries).filter(
      (d) => (!eventType || d.eventType === eventType) && (!state || d.state === state),
    );
    return ok({ data: list.map(({ body, ...d }) => ({ ...d, event: JSON.parse(body) as unknown })) });
  });
  r.get('/sandbox/events', ({ query }) => {
    const type = query.get('type');
    return ok({ data: core.recentEvents.filter((e) => !type || e.type === type) });
  });
  r.get('/sandbox/webhook-secret', () => ok({ secret: core.webhookSecret }));
  // The service's dashboard rolling the signing secret: every attempt from now on, retries of older events too, is
  // signed with the new one (the receiver accepts both during the rotation). Never echoed.
  r.add('PUT', '/sandbox/webhook-secret', ({ body }) => {
    const { secret } = parse(WebhookSecretBodySchema, body);
    // A secret published in the repository (in any spelling of its key) or outside 24–64 bytes never signs anything
    // (src/security/known-secrets.ts; Standard Webhooks key sizes).
    if (knownSecretReason(secret, 'webhook-secret') !== null)
      throw validationError([
        {
          path: 'secret',
          rule: 'KNOWN_SECRET',
          message: 'a published or weak secret; generate one (whsec_ and 24 to 64 random bytes, base64)',
        },
      ]);
    core.webhookSecret = secret;
    return ok({ status: 'rotated' });
  });
}

/** Faults injected into the /v1 answers. */
function addFaultRoutes(r: Router, core: Services['core']): void {
  r.post('/sandbox/faults', ({ body }) => ({
    status: 201,
    body: core.faults.add(parse(FaultSpecSchema, body)),
  }));
  r.get('/sandbox/faults', () => ok({ data: core.faults.list() }));
  r.delete('/sandbox/faults', () => {
    core.faults.clear();
    return ok({ data: [] });
  });
}
