import { z } from 'zod';
import {
  BLOCKCHAIN_RAILS,
  CURRENCY_HOME_COUNTRY,
  currentRail,
  roundMinor,
  destinationFromSource,
  FeeCalculationError,
  isInForce,
  isRail,
  type Rate,
  RAILS,
  sourceFromDestination,
  zodIssuesToViolations,
} from '../../contract';
import { type SandboxCore } from '../core';
import { ApiError, endpointRemoved, type FieldViolation, validationError } from '../http/api-error';
import { type Router } from '../http/router';
import { findCorridors, legacyCorridors, resolveLocalRail } from '../domain/corridors';
import { type RateBook } from '../domain/rates';
import { accountRequirements, legacyRequirements } from '../domain/requirements';

/**
 * Query of GET /v1/payments/rate (gap: "further query parameters: not shown"; docs/spec-gaps.md ## Sandbox).
 * `sourceCurrency`, `destinationCurrency` and `amount` are accepted as aliases.
 */
export const RateQuerySchema = z.object({
  sourceCurrencyCode: z.string().min(3),
  destinationCurrencyCode: z.string().min(3),
  sourceRail: z.string().min(1),
  destinationRail: z.string().min(1),
  sourceAmount: z.coerce.number().positive().optional(),
  destinationAmount: z.coerce.number().positive().optional(),
  developerFeeFixed: z.coerce.number().min(0).default(0),
  developerFeeVariable: z.coerce.number().min(0).lt(1).default(0),
  /** With the legacy rail CRYPTO (before 2026-03-04): the blockchain that replaces it, as in POST /payments. */
  sourceChain: z.string().min(1).optional(),
  destinationChain: z.string().min(1).optional(),
});
export type RateQuery = z.infer<typeof RateQuerySchema>;

/** Payload of POST /v1/payments/corridors (gap: payload not shown): an optional filter. */
export const CorridorFilterSchema = z
  .object({
    source: z.object({ currencyCode: z.string().optional(), rail: z.string().optional() }).optional(),
    destination: z
      .object({
        currencyCode: z.string().optional(),
        rail: z.string().optional(),
        countryCode: z.string().optional(),
      })
      .optional(),
  })
  .optional();

function readRateQuery(query: URLSearchParams): RateQuery {
  const q = Object.fromEntries(query);
  const withAliases = {
    ...q,
    sourceCurrencyCode: q.sourceCurrencyCode ?? q.sourceCurrency,
    destinationCurrencyCode: q.destinationCurrencyCode ?? q.destinationCurrency,
    sourceAmount: q.sourceAmount ?? q.amount,
  };
  const parsed = RateQuerySchema.safeParse(withAliases);
  const fields: FieldViolation[] = parsed.success ? [] : zodIssuesToViolations(parsed.error);
  if (
    parsed.success &&
    (parsed.data.sourceAmount === undefined) === (parsed.data.destinationAmount === undefined)
  ) {
    fields.push({
      path: 'sourceAmount',
      rule: 'SCHEMA',
      message: 'give exactly one of sourceAmount and destinationAmount',
    });
  }
  if (fields.length > 0 || !parsed.success) throw validationError(fields);
  return parsed.data;
}

export function computeRate(core: SandboxCore, rates: RateBook, q: RateQuery): Rate {
  const asOf = core.now();
  const fields: FieldViolation[] = [];
  const rails = { sourceRail: q.sourceRail, destinationRail: q.destinationRail };
  for (const side of ['sourceRail', 'destinationRail'] as const) {
    const chain = side === 'sourceRail' ? q.sourceChain : q.destinationChain;
    if (q[side] === 'CRYPTO' && isInForce('CRYPTO_RAIL_REMOVED', asOf)) {
      fields.push({
        path: side,
        rule: 'CRYPTO_RAIL_REMOVED',
        message: 'CRYPTO is no longer a rail: give the blockchain name (e.g. POLYGON)',
      });
    } else if (!isRail(q[side]) && isInForce('RAILS_ENUM_ENFORCED', asOf)) {
      // spec: Errors 2 — from 2026-07-31 a rail outside the enumerated list gives 400.
      fields.push({
        path: side,
        rule: 'RAILS_ENUM_ENFORCED',
        message: `${q[side]} is not an accepted rail: use one of ${RAILS.join(', ')}`,
      });
    }
    // spec: Rail values — WIRE → SWIFT, CRYPTO → its chain, as POST /payments maps them.
    rails[side] = currentRail(q[side], chain, asOf);
  }
  // spec: Rail values — LOCAL is the country's default rail, on either side; the query names no account, so the
  // country is the currency's home (USD → ACH, BRL → TED, INR → IMPS), as POST /payments does for funds sent in.
  const sourceRail = resolveLocalRail(rails.sourceRail, CURRENCY_HOME_COUNTRY[q.sourceCurrencyCode]);
  const destinationRail = resolveLocalRail(
    rails.destinationRail,
    CURRENCY_HOME_COUNTRY[q.destinationCurrencyCode],
  );
  // spec: Rate, legacy shape — CRYPTO is priced as one bucket whatever the chain, and GET /payments/rate shows
  // no chain parameter: before 2026-03-04 CRYPTO without sourceChain/destinationChain (our optional extras) is
  // priced on the first chain a corridor serves for the pair (the sandbox's chains all cost the same).
  const railsToTry = (rail: string) => (rail === 'CRYPTO' ? [...BLOCKCHAIN_RAILS] : [rail]);
  const corridor = railsToTry(sourceRail)
    .flatMap((s) =>
      railsToTry(destinationRail).map(
        (d) =>
          findCorridors({
            sourceCurrencyCode: q.sourceCurrencyCode,
            sourceRail: s,
            destinationCurrencyCode: q.destinationCurrencyCode,
            destinationRail: d,
          })[0],
      ),
    )
    .find((c) => c !== undefined);
  if (!corridor && fields.length === 0) {
    // The side no corridor serves is named: sourceRail when none leaves from the source currency on it.
    const fromSource = railsToTry(sourceRail).some(
      (s) => findCorridors({ sourceCurrencyCode: q.sourceCurrencyCode, sourceRail: s }).length > 0,
    );
    fields.push({
      path: fromSource ? 'destinationRail' : 'sourceRail',
      rule: 'CORRIDOR_UNSUPPORTED',
      message: `no corridor ${q.sourceCurrencyCode}/${q.sourceRail} → ${q.destinationCurrencyCode}/${q.destinationRail}: see GET /v1/payments/corridors`,
    });
  }
  if (fields.length > 0 || !corridor) throw validationError(fields);
  const midMarketRate = rates.midMarketRate(
    q.sourceCurrencyCode,
    q.destinationCurrencyCode,
    core.clock.nowMs(),
  );
  const common = {
    midMarketRate,
    serviceFee: corridor.fees,
    developerFee: { fixed: q.developerFeeFixed, variable: q.developerFeeVariable },
    sourceCurrency: q.sourceCurrencyCode,
    destinationCurrency: q.destinationCurrencyCode,
  };
  let amounts;
  try {
    amounts =
      q.sourceAmount !== undefined
        ? destinationFromSource({ ...common, sourceAmount: q.sourceAmount })
        : sourceFromDestination({ ...common, destinationAmount: q.destinationAmount! });
  } catch (err) {
    if (err instanceof FeeCalculationError)
      throw validationError([
        {
          path: q.sourceAmount !== undefined ? 'sourceAmount' : 'destinationAmount',
          rule: 'AMOUNT_BELOW_FEES',
          message: err.message,
        },
      ]);
    throw err;
  }
  return {
    midMarketRate,
    invertedMidMarketRate: Number((1 / midMarketRate).toPrecision(8)),
    serviceFee: { ...corridor.fees },
    developerFee: { ...common.developerFee },
    calculatedAmount: {
      description: `${amounts.sourceAmount} ${q.sourceCurrencyCode} via ${sourceRail} → ${amounts.destinationAmount} ${q.destinationCurrencyCode} via ${destinationRail}`,
      ...amounts,
    },
    quoteId: core.newId('quo'),
  };
}

export function registerReferenceRoutes(api: Router, core: SandboxCore, rates: RateBook): void {
  registerCorridorRoutes(api, core, rates);
  registerRateRoutes(api, core, rates);
  registerRequirementsRoutes(api, core);
}

/** spec: Versioning 3, Aug 25 2025 — GET /payments/corridors, /accounts/requirements and /payments/rate added. */
function requireAdded(core: SandboxCore, path: string): void {
  if (!isInForce('NEW_ENDPOINTS_ADDED', core.now()))
    throw new ApiError(404, 'NOT_FOUND', `No endpoint ${path} before 2025-08-25`);
}

/**
 * The payload is an optional filter object: left out is no filter, but the JSON value null (or any non-object) is
 * not a payload the call can read (400, as every other POST with a body that is not an object).
 */
function corridorFilter(body: unknown) {
  if (body === null)
    throw validationError([
      { path: '', rule: 'NOT_AN_OBJECT', message: 'the payload must be a filter object, or left out' },
    ]);
  const parsed = CorridorFilterSchema.safeParse(body);
  if (!parsed.success) throw validationError(zodIssuesToViolations(parsed.error));
  const f = parsed.data ?? {};
  return {
    data: findCorridors({
      sourceCurrencyCode: f.source?.currencyCode,
      sourceRail: f.source?.rail,
      destinationCurrencyCode: f.destination?.currencyCode,
      destinationRail: f.destination?.rail,
      destinationCountryCode: f.destination?.countryCode,
    }),
  };
}

function registerCorridorRoutes(api: Router, core: SandboxCore, rates: RateBook): void {
  // spec: Endpoints — GET /payments/corridors: object with data: array of corridor objects.
  api.get('/v1/payments/corridors', ({ query, path }) => {
    requireAdded(core, path);
    const data = findCorridors({
      sourceCurrencyCode: query.get('sourceCurrencyCode') ?? undefined,
      destinationCurrencyCode: query.get('destinationCurrencyCode') ?? undefined,
      destinationCountryCode: query.get('destinationCountryCode') ?? undefined,
    });
    return { status: 200, body: { data } };
  });
  // spec: Endpoints — POST /payments/corridors replaces the POST form under /configuration/corridors, a
  // configuring call: the client sends it with X-Idempotency-Key, which the sandbox honours (same key and
  // body → the first answer replayed; other body → 409); a call without a key is answered too.
  api.post('/v1/payments/corridors', ({ body }) => ({ status: 200, body: corridorFilter(body) }), {
    idempotent: 'optional',
  });
  // spec: Versioning — POST /configuration/corridors removed from use on 2026-03-04.
  api.post('/v1/configuration/corridors', ({ body }) => {
    if (isInForce('CONFIGURATION_CORRIDORS_POST_REMOVED', core.now()))
      throw endpointRemoved('POST /v1/payments/corridors', '2026-03-04');
    return { status: 200, body: corridorFilter(body) };
  });
  // spec: Endpoints — legacy, ends 2025-09-30.
  api.get('/v1/configurations/corridors', () => {
    if (isInForce('LEGACY_ENDPOINTS_ENDED', core.now()))
      throw endpointRemoved('GET /v1/payments/corridors', '2025-09-30');
    const atMs = core.clock.nowMs();
    const toUsd = (amount: number, currency: string) =>
      roundMinor(amount * rates.midMarketRate(currency, 'USD', atMs), 'USD');
    return { status: 200, body: { data: legacyCorridors(toUsd) } };
  });
}

function registerRateRoutes(api: Router, core: SandboxCore, rates: RateBook): void {
  api.get('/v1/payments/rate', ({ query, path }) => {
    requireAdded(core, path);
    return { status: 200, body: computeRate(core, rates, readRateQuery(query)) };
  });
  // spec: Endpoints — legacy rate; appends the result of the new endpoint; ends 2025-09-30.
  api.get('/v1/payments/rate/service', ({ query }) => {
    if (isInForce('LEGACY_ENDPOINTS_ENDED', core.now()))
      throw endpointRemoved('GET /v1/payments/rate', '2025-09-30');
    return { status: 200, body: legacyServiceRate(core, rates, query) };
  });
}

/** The legacy rate's body: the new endpoint's result per legacy rail (LOCAL, WIRE, CRYPTO), appended. */
function legacyServiceRate(
  core: SandboxCore,
  rates: RateBook,
  query: URLSearchParams,
): Record<string, unknown> {
  const sourceCurrencyCode = query.get('sourceCurrency') ?? query.get('sourceCurrencyCode') ?? '';
  const destinationCurrencyCode =
    query.get('destinationCurrency') ?? query.get('destinationCurrencyCode') ?? '';
  const amount = Number(query.get('amount') ?? query.get('sourceAmount') ?? NaN);
  if (!sourceCurrencyCode || !destinationCurrencyCode || !(amount > 0)) {
    throw validationError([
      {
        path: 'query',
        rule: 'SCHEMA',
        message: 'give sourceCurrency, destinationCurrency and a positive amount',
      },
    ]);
  }
  const legacy: Record<string, Record<string, unknown>> = {
    serviceFees: { description: 'service fees by rail' },
    serviceRates: { description: 'deprecated' },
    calculatedAmounts: {},
  };
  const sourceRail = findCorridors({ sourceCurrencyCode })[0]?.source.rails[0] ?? 'LOCAL';
  let current: Rate | null = null;
  for (const [key, rail] of [
    ['LOCAL', 'LOCAL'],
    ['WIRE', 'SWIFT'],
    ['CRYPTO', 'POLYGON'],
  ] as const) {
    try {
      const r = computeRate(core, rates, {
        sourceCurrencyCode,
        destinationCurrencyCode,
        sourceRail,
        destinationRail: rail,
        sourceAmount: amount,
        developerFeeFixed: 0,
        developerFeeVariable: 0,
      });
      legacy.serviceFees![key] = r.serviceFee;
      legacy.serviceRates![key] = r.serviceFee.variable;
      const { sourceAmount, destinationAmount, totalFeeInSourceCurrency } = r.calculatedAmount;
      legacy.calculatedAmounts![key] = { sourceAmount, destinationAmount, totalFeeInSourceCurrency };
      current ??= r;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  if (!current)
    throw validationError([
      {
        path: 'destinationCurrency',
        rule: 'CORRIDOR_UNSUPPORTED',
        message: 'no corridor for this currency pair',
      },
    ]);
  return {
    midMarketRate: current.midMarketRate,
    invertedMidMarketRate: current.invertedMidMarketRate,
    ...legacy,
    developerFees: { description: 'developer fees', fixed: 0, variable: 0 },
    quoteId: current.quoteId,
    rate: current,
  };
}

function registerRequirementsRoutes(api: Router, core: SandboxCore): void {
  // spec: Endpoints — GET /accounts/requirements by bank country code and currency code.
  api.get('/v1/accounts/requirements', ({ query, path }) => {
    requireAdded(core, path);
    const { country, currency } = requirementsQuery(query);
    const items = accountRequirements(country, currency, core.now());
    if (!items)
      throw new ApiError(
        404,
        'NOT_FOUND',
        `No account requirements for ${country}/${currency}: see GET /v1/payments/corridors`,
      );
    return { status: 200, body: items };
  });
  api.get('/v1/accounts/requirements/external-bank-accounts', ({ query }) => {
    if (isInForce('LEGACY_ENDPOINTS_ENDED', core.now()))
      throw endpointRemoved('GET /v1/accounts/requirements', '2025-09-30');
    const { country, currency } = requirementsQuery(query);
    const items = legacyRequirements(country, currency, core.now());
    if (!items) throw new ApiError(404, 'NOT_FOUND', `No account requirements for ${country}/${currency}`);
    return { status: 200, body: items };
  });
}

function requirementsQuery(query: URLSearchParams): { country: string; currency: string } {
  const country = (query.get('bankCountryCode') ?? query.get('countryCode') ?? '').toUpperCase();
  const currency = (query.get('currencyCode') ?? '').toUpperCase();
  const fields: FieldViolation[] = [];
  if (!/^[A-Z]{2}$/.test(country))
    fields.push({
      path: 'bankCountryCode',
      rule: 'SCHEMA',
      message: 'bankCountryCode is required: an ISO 3166-1 alpha-2 code such as US',
    });
  if (!/^[A-Z]{3,5}$/.test(currency))
    fields.push({ path: 'currencyCode', rule: 'SCHEMA', message: 'currencyCode is required, such as USD' });
  if (fields.length > 0) throw validationError(fields);
  return { country, currency };
}
