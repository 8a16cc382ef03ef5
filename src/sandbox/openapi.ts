import { z } from 'zod';
import {
  AccountRequirementSchema,
  AccountSchema,
  CorridorSchema,
  CreateAccountRequestSchema,
  FAULTY_ANNUAL_REVENUE_USD,
  CreateCustomerRequestSchema,
  CreatePaymentRequestSchema,
  CustomerSchema,
  ErrorBodySchema,
  LegacyAccountRequirementsSchema,
  LegacyCorridorSchema,
  LegacyRateSchema,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  listEnvelope,
  PaymentSchema,
  RateSchema,
  TransitionalPaymentSchema,
  WebhookEventSchema,
} from '../contract';
import { type Router } from './http/router';
import { CorridorFilterSchema, RateQuerySchema } from './routes/reference';

const COMPONENTS: Record<string, z.ZodType> = {
  Payment: PaymentSchema,
  TransitionalPayment: TransitionalPaymentSchema,
  CreatePaymentRequest: CreatePaymentRequestSchema,
  PaymentList: listEnvelope(PaymentSchema),
  Customer: CustomerSchema,
  CreateCustomerRequest: CreateCustomerRequestSchema,
  CustomerList: listEnvelope(CustomerSchema),
  Account: AccountSchema,
  CreateAccountRequest: CreateAccountRequestSchema,
  AccountList: listEnvelope(AccountSchema),
  CorridorList: z.object({ data: z.array(CorridorSchema) }),
  CorridorFilter: CorridorFilterSchema,
  Rate: RateSchema,
  RateQuery: RateQuerySchema,
  AccountRequirements: z.array(AccountRequirementSchema),
  LegacyCorridorList: z.object({ data: z.array(LegacyCorridorSchema) }),
  LegacyRate: LegacyRateSchema,
  LegacyAccountRequirements: LegacyAccountRequirementsSchema,
  ErrorBody: ErrorBodySchema,
  WebhookEvent: WebhookEventSchema,
};

/**
 * Which component each /v1 route takes and returns. `optionalBody`: the body may be left out.
 * `deprecated`: a legacy or removed endpoint (410 ENDPOINT_REMOVED after its date; spec: Endpoints, Versioning).
 * `links`: the GET that reads back what the call created (OpenAPI links, for stateful testing).
 */
const IO: Record<
  string,
  {
    request?: string;
    response: string;
    status?: number;
    optionalBody?: boolean;
    deprecated?: boolean;
    links?: Record<string, string>;
  }
> = {
  'POST /v1/payments': {
    request: 'CreatePaymentRequest',
    response: 'Payment',
    status: 201,
    links: { GetPayment: 'GET /v1/payments/:id' },
  },
  'GET /v1/payments': { response: 'PaymentList' },
  'GET /v1/payments/:id': { response: 'Payment' },
  'GET /v1/payments/customer/:customerId': { response: 'PaymentList' },
  'GET /v1/payments/entity/:entityId': { response: 'PaymentList', deprecated: true },
  'GET /v1/payment/recipient/:recipient': { response: 'PaymentList', deprecated: true },
  'GET /v1/payments/corridors': { response: 'CorridorList' },
  'POST /v1/payments/corridors': { request: 'CorridorFilter', response: 'CorridorList', optionalBody: true },
  'POST /v1/configuration/corridors': {
    request: 'CorridorFilter',
    response: 'CorridorList',
    optionalBody: true,
    deprecated: true,
  },
  'GET /v1/payments/rate': { response: 'Rate' },
  'POST /v1/customers': {
    request: 'CreateCustomerRequest',
    response: 'Customer',
    status: 201,
    links: { GetCustomer: 'GET /v1/customers/:id' },
  },
  'GET /v1/customers': { response: 'CustomerList' },
  'GET /v1/customers/:id': { response: 'Customer' },
  'POST /v1/accounts': {
    request: 'CreateAccountRequest',
    response: 'Account',
    status: 201,
    links: { GetAccount: 'GET /v1/accounts/:id' },
  },
  'GET /v1/accounts': { response: 'AccountList' },
  'GET /v1/accounts/:id': { response: 'Account' },
  'GET /v1/accounts/requirements': { response: 'AccountRequirements' },
  'GET /v1/configurations/corridors': { response: 'LegacyCorridorList', deprecated: true },
  'GET /v1/payments/rate/service': { response: 'LegacyRate', deprecated: true },
  'GET /v1/accounts/requirements/external-bank-accounts': {
    response: 'LegacyAccountRequirements',
    deprecated: true,
  },
};

interface QueryParam {
  name: string;
  required?: boolean;
  schema: Record<string, unknown>;
  description?: string;
}

const str = { type: 'string' };
const PAGING: QueryParam[] = [
  {
    name: 'limit',
    schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT },
  },
  {
    name: 'cursor',
    schema: { type: 'string', minLength: 1 },
    description: 'the nextCursor of the previous page',
  },
];
const REQUIREMENTS_QUERY: QueryParam[] = [
  {
    name: 'bankCountryCode',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z]{2}$', example: 'US' },
  },
  {
    name: 'currencyCode',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z]{3,5}$', example: 'USD' },
  },
];

/** Query parameters of each GET (docs/spec-gaps.md: the spec shows none but the rate's rails). */
const QUERY: Record<string, QueryParam[]> = {
  'GET /v1/payments': [
    { name: 'status', schema: str },
    { name: 'type', schema: str },
    { name: 'customerId', schema: str },
    ...PAGING,
  ],
  'GET /v1/payments/customer/:customerId': PAGING,
  'GET /v1/payments/entity/:entityId': PAGING,
  'GET /v1/payment/recipient/:recipient': PAGING,
  'GET /v1/customers': PAGING,
  'GET /v1/accounts': [{ name: 'customerId', schema: str }, { name: 'type', schema: str }, ...PAGING],
  'GET /v1/payments/corridors': [
    { name: 'sourceCurrencyCode', schema: str },
    { name: 'destinationCurrencyCode', schema: str },
    { name: 'destinationCountryCode', schema: str },
  ],
  'GET /v1/payments/rate': rateQuery(),
  'GET /v1/payments/rate/service': [
    { name: 'sourceCurrency', required: true, schema: { type: 'string', minLength: 1 } },
    { name: 'destinationCurrency', required: true, schema: { type: 'string', minLength: 1 } },
    { name: 'amount', required: true, schema: { type: 'number', exclusiveMinimum: true, minimum: 0 } },
  ],
  'GET /v1/accounts/requirements': REQUIREMENTS_QUERY,
  'GET /v1/accounts/requirements/external-bank-accounts': REQUIREMENTS_QUERY,
};

/** GET /v1/payments/rate: one parameter per field of RateQuerySchema, required when the schema requires it. */
function rateQuery(): QueryParam[] {
  const object = jsonSchema(RateQuerySchema) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(object.properties).map(([name, schema]) => ({
    name,
    required: object.required?.includes(name) ?? false,
    schema,
    ...(name === 'sourceAmount' || name === 'destinationAmount'
      ? { description: 'exactly one of sourceAmount and destinationAmount' }
      : {}),
  }));
}

function jsonSchema(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io: 'input' });
}

/**
 * spec: Customer, estimatedAnnualRevenueUSD — the faulty values are replaced, and refused at every date
 * (docs/spec-gaps.md, Contract). The zod enum keeps them so that a request carrying one is answered with its
 * replacement named; the document must not offer them, so they are dropped from its enums.
 */
function withoutFaultyRevenueValues(schema: unknown): unknown {
  const faulty = Object.keys(FAULTY_ANNUAL_REVENUE_USD);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const property = (record.properties as Record<string, { enum?: unknown[] }> | undefined)
        ?.estimatedAnnualRevenueUSD;
      if (Array.isArray(property?.enum))
        property.enum = property.enum.filter((v) => !faulty.includes(String(v)));
      Object.values(record).forEach(walk);
    }
  };
  walk(schema);
  return schema;
}

/** OpenAPI 3.0 document of the sandbox's /v1 API, generated from the zod schemas of src/contract. */
const operationId = (key: string): string => key.replace(/[^A-Za-z0-9]+/g, '_');

/** `serverUrl`: the sandbox root (paths carry the /v1 prefix themselves). */
export function buildOpenApi(api: Router, serverUrl: string): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const errorResponse = {
    description: 'Error',
    content: { 'application/json': { schema: ref('ErrorBody') } },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of api.list()) {
    const key = `${route.method} ${route.template}`;
    const io = IO[key];
    const path = route.template.replace(/:(\w+)/g, '{$1}');
    const params = [...route.template.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    // X-Api-Key is the security scheme below, not a parameter (a generated value would be a wrong key).
    const headers = [
      ...(route.idempotent
        ? [
            {
              name: 'X-Idempotency-Key',
              in: 'header',
              required: route.idempotent === true,
              schema: { type: 'string', minLength: 1 },
            },
          ]
        : []),
    ];
    const query = (QUERY[key] ?? []).map((q) => ({ in: 'query', required: false, ...q }));
    const links = Object.fromEntries(
      Object.entries(io?.links ?? {}).map(([name, target]) => [
        name,
        { operationId: operationId(target), parameters: { id: '$response.body#/id' } },
      ]),
    );
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: operationId(key),
      ...(io?.deprecated ? { deprecated: true } : {}),
      parameters: [...params, ...query, ...headers],
      ...(io?.request
        ? {
            requestBody: {
              required: !io.optionalBody,
              content: { 'application/json': { schema: ref(io.request) } },
            },
          }
        : {}),
      responses: {
        [String(io?.status ?? 200)]: {
          description: 'OK',
          content: { 'application/json': { schema: io ? ref(io.response) : {} } },
          ...(io?.links ? { links } : {}),
        },
        ...(io?.deprecated
          ? {
              '410': {
                description: 'ENDPOINT_REMOVED after the end date',
                content: { 'application/json': { schema: ref('ErrorBody') } },
              },
            }
          : {}),
        '4XX': errorResponse,
        '5XX': errorResponse,
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'xborder payments service sandbox',
      version: '1.0.0',
      description: 'Generated from the zod schemas of src/contract. See docs/sandbox.md.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, schema]) => [
          name,
          withoutFaultyRevenueValues(jsonSchema(schema)),
        ]),
      ),
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    },
    security: [{ apiKey: [] }],
  };
}
