import { z } from 'zod';
import {
  CUSTOMER_CAPABILITIES,
  CUSTOMER_STATUSES,
  DOCUMENT_TYPES,
  ESTIMATED_ANNUAL_REVENUE_USD,
  FAULTY_ANNUAL_REVENUE_USD,
} from './enums';
import { AnyObject, CountryCode, IsoDate, Timestamp } from './primitives';

// spec: Customer. "The complete list of customer fields, with types and which are required: not shown."
// Only what is required at every date is required here; dated requirements (description ≥ 200,
// accountPurpose, KYB fields, documents, age, …) are checked by validateCustomer(body, asOf).
// Field names the spec does not give (birthDate, address, documents, associatedPersons, …) are
// our gap decisions (docs/spec-gaps.md, Contract).

export const AddressSchema = z.looseObject({
  line1: z.string().optional(),
  line2: z.string().optional(),
  city: z.string().optional(),
  postalCode: z.string().optional(),
  // spec: Customer — replaces stateOrProvince (refused from 2026-03-04, rule STATE_OR_PROVINCE_REMOVED).
  stateRegionOrProvince: z.string().optional(),
  countryCode: CountryCode,
});
export type Address = z.infer<typeof AddressSchema>;

export const DocumentSchema = z.looseObject({
  type: z.enum(DOCUMENT_TYPES),
  fileUrl: z.string().min(1),
});
export type CustomerDocument = z.infer<typeof DocumentSchema>;

// spec: Customer, associated persons — title required from 2026-07-31; a selfie for high-risk countries.
export const AssociatedPersonSchema = z.looseObject({
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  title: z.string().optional(),
  /** Country of residence, used for the high-risk selfie rule. */
  countryCode: CountryCode,
  birthDate: IsoDate.optional(),
  email: z.string().optional(),
  /** File address of the person's selfie. */
  selfieFileUrl: z.string().optional(),
});
export type AssociatedPerson = z.infer<typeof AssociatedPersonSchema>;

const common = {
  email: z.email(),
  phone: z.string().min(1),
  capabilities: z.array(z.enum(CUSTOMER_CAPABILITIES)).optional(),
  accountPurpose: z.string().optional(),
  address: AddressSchema,
  /** Enhanced due diligence questionnaire (required for high-risk countries from 2026-07-31). */
  eddQuestionnaire: AnyObject.optional(),
};

export const IndividualCustomerRequestSchema = z.looseObject({
  type: z.literal('INDIVIDUAL'),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  /** Date of birth, YYYY-MM-DD (required from 2026-03-30, rule AGE_18_TO_60). */
  birthDate: IsoDate.optional(),
  ...common,
});

export const BusinessCustomerRequestSchema = z.looseObject({
  type: z.literal('BUSINESS'),
  /** Legal name of the business (the former customer object called it `name`). */
  name: z.string().min(1),
  description: z.string().optional(),
  estimatedAnnualRevenueUSD: z
    .enum([
      ...ESTIMATED_ANNUAL_REVENUE_USD,
      ...(Object.keys(FAULTY_ANNUAL_REVENUE_USD) as (keyof typeof FAULTY_ANNUAL_REVENUE_USD)[]),
    ])
    .optional(),
  expectedMonthlyPaymentsUSD: z.number().nonnegative().optional(),
  operatesInProhibitedCountries: z.boolean().optional(),
  /** The high-risk activities the business conducts; [] = none. */
  highRiskActivities: z.array(z.string()).optional(),
  conductsMoneyServices: z.boolean().optional(),
  actingAsIntermediary: z.boolean().optional(),
  sourceOfFundsDescription: z.string().optional(),
  /** The team has a reliance agreement: a PROOF_OF_VERIFICATION document is then required. */
  relianceAgreement: z.boolean().optional(),
  documents: z.array(DocumentSchema).optional(),
  associatedPersons: z.array(AssociatedPersonSchema).optional(),
  ...common,
});

/** The POST /customers body, INDIVIDUAL or BUSINESS by `type` (spec: Customer); validateCustomer checks the dated rules besides. */
export const CreateCustomerRequestSchema = z.discriminatedUnion('type', [
  IndividualCustomerRequestSchema,
  BusinessCustomerRequestSchema,
]);
/** The POST /customers body (CreateCustomerRequestSchema). */
export type CreateCustomerRequest = z.infer<typeof CreateCustomerRequestSchema>;
export type IndividualCustomerRequest = z.infer<typeof IndividualCustomerRequestSchema>;
export type BusinessCustomerRequest = z.infer<typeof BusinessCustomerRequestSchema>;

const responseFields = {
  id: z.string().min(1),
  // Gap decision: review outcome (docs/spec-gaps.md, Wire decisions, "Customer review status").
  status: z.enum(CUSTOMER_STATUSES),
  createdAt: Timestamp,
};
export const IndividualCustomerSchema = IndividualCustomerRequestSchema.extend(responseFields);
export const BusinessCustomerSchema = BusinessCustomerRequestSchema.extend(responseFields);
/** A customer as the service answers it: the request's fields plus `id`, `status` and `createdAt`. */
export const CustomerSchema = z.discriminatedUnion('type', [
  IndividualCustomerSchema,
  BusinessCustomerSchema,
]);
/** A customer as the service answers it (CustomerSchema). */
export type Customer = z.infer<typeof CustomerSchema>;
