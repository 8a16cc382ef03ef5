// spec: Customer — CustomerSchema (customer.ts) written with the plain schemas (plain-schema.ts), for the one
// workflow that still parses a customer itself (providerCustomer, until its owner moves that to an activity; then
// this file goes). Same accept/reject, output and messages as the zod schema: test/unit/plain-schema.test.ts.
import {
  CUSTOMER_CAPABILITIES,
  CUSTOMER_STATUSES,
  DOCUMENT_TYPES,
  ESTIMATED_ANNUAL_REVENUE_USD,
  FAULTY_ANNUAL_REVENUE_USD,
} from './enums';
import type { Customer } from './customer';
import { ISO_DATE, ISO_DATETIME_WITH_OFFSET } from './iso-formats';
import {
  array,
  boolean,
  discriminatedUnion,
  literal,
  literalEnum,
  number,
  object,
  optional,
  record,
  string,
  type PlainSchema,
} from './plain-schema';

const loose = { loose: true } as const;
/** CountryCode (primitives.ts) */
const countryCode = string({ pattern: /^[A-Z]{2}$/, message: 'an ISO 3166-1 alpha-2 code such as US' });
const isoDate = string({ pattern: ISO_DATE, format: 'ISO date' });
/** z.email()'s pattern (zod 4 core/regexes.js `email`). */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

const address = object(
  {
    line1: optional(string()),
    line2: optional(string()),
    city: optional(string()),
    postalCode: optional(string()),
    stateRegionOrProvince: optional(string()),
    countryCode,
  },
  loose,
);
const document = object({ type: literalEnum(DOCUMENT_TYPES), fileUrl: string({ min: 1 }) }, loose);
const associatedPerson = object(
  {
    firstName: string({ min: 1 }),
    lastName: string({ min: 1 }),
    title: optional(string()),
    countryCode,
    birthDate: optional(isoDate),
    email: optional(string()),
    selfieFileUrl: optional(string()),
  },
  loose,
);

const common = {
  email: string({ pattern: EMAIL, format: 'email address' }),
  phone: string({ min: 1 }),
  capabilities: optional(array(literalEnum(CUSTOMER_CAPABILITIES))),
  accountPurpose: optional(string()),
  address,
  eddQuestionnaire: optional(record()),
};

const individual = {
  type: literal('INDIVIDUAL'),
  firstName: string({ min: 1 }),
  lastName: string({ min: 1 }),
  birthDate: optional(isoDate),
  ...common,
};

const REVENUES = [
  ...ESTIMATED_ANNUAL_REVENUE_USD,
  ...(Object.keys(FAULTY_ANNUAL_REVENUE_USD) as (keyof typeof FAULTY_ANNUAL_REVENUE_USD)[]),
] as const;

const business = {
  type: literal('BUSINESS'),
  name: string({ min: 1 }),
  description: optional(string()),
  estimatedAnnualRevenueUSD: optional(literalEnum(REVENUES)),
  expectedMonthlyPaymentsUSD: optional(number({ nonnegative: true })),
  operatesInProhibitedCountries: optional(boolean()),
  highRiskActivities: optional(array(string())),
  conductsMoneyServices: optional(boolean()),
  actingAsIntermediary: optional(boolean()),
  sourceOfFundsDescription: optional(string()),
  relianceAgreement: optional(boolean()),
  documents: optional(array(document)),
  associatedPersons: optional(array(associatedPerson)),
  ...common,
};

const responseFields = {
  id: string({ min: 1 }),
  status: literalEnum(CUSTOMER_STATUSES),
  createdAt: string({ pattern: ISO_DATETIME_WITH_OFFSET, format: 'ISO datetime' }),
};

export const CustomerShape = discriminatedUnion<unknown>('type', {
  INDIVIDUAL: object({ ...individual, ...responseFields }, loose),
  BUSINESS: object({ ...business, ...responseFields }, loose),
}) as PlainSchema<Customer>;
