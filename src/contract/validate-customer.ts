import { countryRisk } from './countries';
import { CreateCustomerRequestSchema, type CustomerDocument } from './customer';
import type { Violation } from './errors';
import { FAULTY_ANNUAL_REVENUE_USD } from './enums';
import { isTeamAliasEmail } from './team-email';
import { UNDATED_RULES, Violations, get, isPresent, notAnObject, str } from './validation';
import { isRecord } from './json';

/** validateCustomer's options: the team's own addresses, the reliance agreement. */
export interface ValidateCustomerOptions {
  /** The team's own address(es); aliases built from them are refused (team-email.ts). */
  teamEmail?: string | readonly string[];
  /** The team has a reliance agreement (also read from the body's `relianceAgreement`). */
  relianceAgreement?: boolean;
}

const PROHIBITED_COUNTRY_NOTE = 'Contact compliance before retrying.';

export const MIN_AGE = 18;
export const MAX_AGE = 60;
export const MIN_BUSINESS_DESCRIPTION = 200;

/** Completed years between a YYYY-MM-DD birth date and asOf (UTC). A Feb 29 birthday falls on Mar 1. */
export function ageAt(birthDate: string, asOf: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const years = asOf.getUTCFullYear() - y;
  const beforeBirthday =
    asOf.getUTCMonth() + 1 < m || (asOf.getUTCMonth() + 1 === m && asOf.getUTCDate() < d);
  return beforeBirthday ? years - 1 : years;
}

// spec: Customer, "required for all businesses from July 31, 2026".
const KYB_FIELDS = [
  'estimatedAnnualRevenueUSD',
  'expectedMonthlyPaymentsUSD',
  'operatesInProhibitedCountries',
  'highRiskActivities',
  'conductsMoneyServices',
  'actingAsIntermediary',
  'sourceOfFundsDescription',
] as const;

// spec: Customer, supporting documents for a business from July 31, 2026.
const KYB_DOCUMENTS: ReadonlyArray<readonly [CustomerDocument['type'], string]> = [
  [
    'PROOF_OF_NATURE_OF_BUSINESS',
    'a proof of the nature of the business (invoices, contracts, bills of lading)',
  ],
  ['PROOF_OF_ADDRESS', 'a proof of address'],
  ['PROOF_OF_SOURCE_OF_FUNDS', 'a proof of source of funds'],
];

/**
 * Every violation of a POST /customers body at asOf (spec: Customer; Errors 4; Limits). [] = valid.
 * `rule` is a DATED_RULES id, or one of UNDATED_RULES.
 */
export function validateCustomer(body: unknown, asOf: Date, opts: ValidateCustomerOptions = {}): Violation[] {
  if (!isRecord(body)) return notAnObject('customer');
  const v = new Violations(asOf);
  // The schema first (zod: this runs at the edges and in the validateCustomerBody activity, never in a workflow)
  v.schema(CreateCustomerRequestSchema.safeParse(body));

  // spec: Customer, email — team-alias addresses refused (no date: always).
  const teamEmails =
    opts.teamEmail === undefined
      ? []
      : typeof opts.teamEmail === 'string'
        ? [opts.teamEmail]
        : opts.teamEmail;
  const email = str(body.email);
  if (email && isTeamAliasEmail(email, teamEmails)) {
    v.add(
      'email',
      UNDATED_RULES.TEAM_ALIAS_EMAIL,
      "use the customer's own email address, not one built from the team's address",
    );
  }

  // spec: Customer, stateRegionOrProvince replaces stateOrProvince (removed from use 2026-03-04).
  if (get(body, 'address.stateOrProvince') !== undefined) {
    v.dated(
      'STATE_OR_PROVINCE_REMOVED',
      'address.stateOrProvince',
      'rename address.stateOrProvince to address.stateRegionOrProvince',
    );
  }
  if (body.stateOrProvince !== undefined) {
    v.dated(
      'STATE_OR_PROVINCE_REMOVED',
      'stateOrProvince',
      'rename stateOrProvince to stateRegionOrProvince',
    );
  }

  // spec: Customer, accountPurpose — required for all customers from 2026-07-31.
  if (!isPresent(body.accountPurpose))
    v.dated(
      'ACCOUNT_PURPOSE_REQUIRED',
      'accountPurpose',
      'add accountPurpose: what the customer will use the account for',
    );

  checkCountry(v, str(get(body, 'address.countryCode')), 'address.countryCode', body.eddQuestionnaire);

  if (body.type === 'INDIVIDUAL') checkIndividual(v, body);
  if (body.type === 'BUSINESS') checkBusiness(v, body, opts);
  return v.list;
}

function checkCountry(v: Violations, code: string | undefined, path: string, edd: unknown): void {
  if (!code) return;
  const risk = countryRisk(code, v.asOf);
  if (risk === 'PROHIBITED') {
    const rule =
      code.toUpperCase() === 'LB' || code.toUpperCase() === 'PS'
        ? 'LB_PS_PROHIBITED'
        : UNDATED_RULES.PROHIBITED_COUNTRY;
    v.add(
      path,
      rule,
      `${code} is a prohibited country: the service does not onboard customers there. ${PROHIBITED_COUNTRY_NOTE}`,
    );
  }
  // spec: Customer — high-risk countries require an EDD questionnaire from 2026-07-31.
  if (risk === 'HIGH_RISK' && !isRecord(edd)) {
    v.dated(
      'EDD_QUESTIONNAIRE',
      'eddQuestionnaire',
      `${code} is a high-risk country: add the enhanced due diligence questionnaire (eddQuestionnaire)`,
    );
  }
}

function checkIndividual(v: Violations, body: Record<string, unknown>): void {
  // spec: Errors 4 / Limits — individuals aged 18 to 60 only, from 2026-03-30.
  if (!v.inForce('AGE_18_TO_60')) return;
  const birthDate = str(body.birthDate);
  if (!birthDate || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) {
    v.add('birthDate', 'AGE_18_TO_60', 'add birthDate (YYYY-MM-DD): individuals must be 18 to 60 years old');
    return;
  }
  const age = ageAt(birthDate, v.asOf);
  if (age < MIN_AGE || age > MAX_AGE) {
    v.add(
      'birthDate',
      'AGE_18_TO_60',
      `the customer is ${age} years old: only individuals aged ${MIN_AGE} to ${MAX_AGE} can be onboarded`,
    );
  }
}

function checkBusiness(v: Violations, body: Record<string, unknown>, opts: ValidateCustomerOptions): void {
  const description = str(body.description) ?? '';
  if (description.trim().length < MIN_BUSINESS_DESCRIPTION) {
    v.dated(
      'BUSINESS_DESCRIPTION_MIN_200',
      'description',
      `describe the business in at least ${MIN_BUSINESS_DESCRIPTION} characters (now ${description.trim().length})`,
    );
  }
  for (const field of KYB_FIELDS) {
    if (!isPresent(body[field])) v.dated('KYB_FIELDS', field, `add ${field}: required for businesses`);
  }
  const revenue = str(body.estimatedAnnualRevenueUSD);
  if (revenue && revenue in FAULTY_ANNUAL_REVENUE_USD) {
    const replacement = FAULTY_ANNUAL_REVENUE_USD[revenue as keyof typeof FAULTY_ANNUAL_REVENUE_USD];
    v.dated(
      'ANNUAL_REVENUE_VALUES',
      'estimatedAnnualRevenueUSD',
      `${revenue} is no longer accepted: use ${replacement}`,
    );
  }

  const documents = Array.isArray(body.documents) ? body.documents : [];
  const has = (type: string) => documents.some((d) => isRecord(d) && d.type === type);
  for (const [type, label] of KYB_DOCUMENTS) {
    if (!has(type)) v.dated('KYB_DOCUMENTS', 'documents', `add ${label} (documents[].type ${type})`);
  }
  if ((opts.relianceAgreement === true || body.relianceAgreement === true) && !has('PROOF_OF_VERIFICATION')) {
    v.dated(
      'KYB_DOCUMENTS',
      'documents',
      'with a reliance agreement add the proof of verification (documents[].type PROOF_OF_VERIFICATION)',
    );
  }

  const persons = Array.isArray(body.associatedPersons) ? body.associatedPersons : [];
  persons.forEach((person, i) => {
    if (!isRecord(person)) return;
    const at = `associatedPersons[${i}]`;
    if (!isPresent(person.title))
      v.dated(
        'ASSOCIATED_PERSON_TITLE',
        `${at}.title`,
        'add the title of the associated person (e.g. Director, CEO)',
      );
    const code = str(person.countryCode);
    if (!code) return;
    const risk = countryRisk(code, v.asOf);
    if (risk === 'PROHIBITED') {
      const rule =
        code.toUpperCase() === 'LB' || code.toUpperCase() === 'PS'
          ? 'LB_PS_PROHIBITED'
          : UNDATED_RULES.PROHIBITED_COUNTRY;
      v.add(
        `${at}.countryCode`,
        rule,
        `${code} is a prohibited country: a person from there cannot be associated. ${PROHIBITED_COUNTRY_NOTE}`,
      );
    }
    if (risk === 'HIGH_RISK' && !isPresent(person.selfieFileUrl)) {
      v.dated(
        'HIGH_RISK_PERSON_SELFIE',
        `${at}.selfieFileUrl`,
        `${code} is a high-risk country: add the person's selfie (selfieFileUrl)`,
      );
    }
  });
}
