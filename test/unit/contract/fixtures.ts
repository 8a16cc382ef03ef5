// Valid bodies and payloads shared by the contract tests. Each test copies before changing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Payment } from '../../../src/contract';

/**
 * The payments service's spec text, which the contract tests cross-check src/contract against. It lives beside
 * the repository (../shared/spec/), or where XBORDER_SPEC_PATH says; a clone alone does not have it, and then
 * those cross-checks are skipped with a notice (the rest of the contract tests run either way).
 */
export const SPEC_PATH =
  process.env.XBORDER_SPEC_PATH ??
  path.resolve(__dirname, '../../../../shared/spec/payments-service-spec.md');
export const SPEC_TEXT: string | null = existsSync(SPEC_PATH) ? readFileSync(SPEC_PATH, 'utf8') : null;

/** `test` when the spec text is present; otherwise a skipped test whose name says why (and one warning per file). */
export function specTest(name: string, fn: (spec: string) => void): void {
  if (SPEC_TEXT !== null) {
    const spec = SPEC_TEXT;
    test(name, () => fn(spec));
  } else {
    test.skip(`${name} [needs the spec text: ${SPEC_PATH} not found]`, () => undefined);
  }
}
if (SPEC_TEXT === null) {
  console.warn(
    `spec cross-checks SKIPPED: ${SPEC_PATH} not found (set XBORDER_SPEC_PATH to the payments service spec to run them)`,
  );
}

export function currentPayment(): Payment {
  return {
    id: 'pay_1',
    lifecycle: {
      createdAt: '2026-02-01T10:00:00.000Z',
      sentAt: '2026-02-01T10:05:00.000Z',
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
    },
    customerId: 'cus_1',
    status: 'SENT',
    statusReasons: null,
    error: null,
    type: 'PAYOUT',
    comment: null,
    reference: 'inv-42',
    returnAddress: null,
    paymentReason: 'PURCHASE_OF_GOODS',
    fee: 2.5,
    developerFee: { fixed: 0.5, variable: 0.01, total: 1.5 },
    quote: { exchangeRate: 5.1, expiresAt: '2026-02-01T10:15:00.000Z' },
    tracking: { traceNumber: 'T1', omad: null, imad: 'I1', certificate: null, uetr: 'U1' },
    files: [],
    configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
    source: {
      amount: 100,
      currencyCode: 'USDC',
      accountId: null,
      rail: 'POLYGON',
      fromAddress: '0xabc',
      transactionHash: null,
      fromAccountNumber: null,
    },
    destination: {
      amount: 497.25,
      rail: 'PIX',
      currencyCode: 'BRL',
      transactionHash: null,
      accountId: 'acc_1',
    },
    fundingInstructions: {
      rail: 'POLYGON',
      amount: 100,
      toAddress: '0xdef',
      fromAddress: '0xabc',
      currencyCode: 'USDC',
    },
  };
}

/** A transitional payload as the service sent it before 2026-03-04: CRYPTO rail + chain, both field sets. */
export function transitionalPayload(): Record<string, unknown> {
  const p = currentPayment() as unknown as Record<string, any>;
  return {
    ...p,
    createdAt: p.lifecycle.createdAt,
    sentAt: p.lifecycle.sentAt,
    completedAt: null,
    updatedAt: p.lifecycle.sentAt,
    entityId: 'cus_1',
    paymentType: 'PAYOUT',
    memo: 'inv-42',
    documentReference: 'doc-9',
    reason: 'PURCHASE_OF_GOODS',
    exchangeRate: 5.1,
    traceNumber: 'T1',
    omad: null,
    imad: 'I1',
    uetr: 'U1',
    estimatedTotalFeeInSourceCurrency: 2.5,
    source: {
      ...p.source,
      rail: 'CRYPTO',
      chain: 'POLYGON',
      estimatedSourceAmount: 100,
      accountNumber: null,
    },
    destination: {
      ...p.destination,
      chain: null,
      estimatedAmount: 497.25,
      account: {
        id: 'acc_1',
        accountHolderName: 'Ana',
        type: 'EXTERNAL_BANK_ACCOUNT',
        accountType: 'CHECKING',
        bankName: 'Banco',
      },
    },
    fundingInstructions: { ...p.fundingInstructions, rail: 'CRYPTO', chain: 'POLYGON' },
    customer: { id: 'cus_1', type: 'INDIVIDUAL', name: 'Ana Silva', email: 'ana@example.com' },
    sendingCustomer: { id: 'cus_1', type: 'INDIVIDUAL', name: 'Ana Silva', email: 'ana@example.com' },
  };
}

/** Old fields only. */
export function legacyPayload(): Record<string, unknown> {
  return {
    id: 'pay_old',
    status: 'COMPLETED',
    createdAt: '2025-06-01T08:00:00Z',
    sentAt: '2025-06-01T08:10:00Z',
    completedAt: '2025-06-01T09:00:00Z',
    updatedAt: '2025-06-01T09:00:00Z',
    entityId: 'cus_old',
    paymentType: 'PAYOUT',
    memo: 'old memo',
    documentReference: null,
    reason: 'REMITTANCES',
    exchangeRate: 18.2,
    traceNumber: null,
    omad: 'O1',
    imad: null,
    uetr: null,
    estimatedTotalFeeInSourceCurrency: 1.2,
    source: { estimatedSourceAmount: 50, currencyCode: 'USDT', chain: 'TRON', accountNumber: null },
    destination: {
      estimatedAmount: 888.4,
      currencyCode: 'MXN',
      chain: null,
      rail: 'LOCAL',
      accountId: 'acc_mx',
    },
  };
}

export function individualBody(): Record<string, unknown> {
  return {
    type: 'INDIVIDUAL',
    firstName: 'Ana',
    lastName: 'Silva',
    email: 'ana.silva@example.org',
    phone: '+5511999999999',
    birthDate: '1990-05-20',
    accountPurpose: 'Receiving salary from abroad',
    address: {
      line1: 'Rua A 1',
      city: 'São Paulo',
      postalCode: '01000-000',
      stateRegionOrProvince: 'SP',
      countryCode: 'BR',
    },
  };
}

export const LONG_DESCRIPTION =
  'Acme Trading Ltd imports industrial machine parts from Germany and Japan and resells them to manufacturers in ' +
  'Brazil and Mexico. Payments go to suppliers abroad; revenue comes from B2B invoices paid by bank transfer.';

export function businessBody(): Record<string, unknown> {
  return {
    type: 'BUSINESS',
    name: 'Acme Trading Ltd',
    email: 'finance@acmetrading.example',
    phone: '+442071234567',
    description: LONG_DESCRIPTION,
    accountPurpose: 'Paying suppliers abroad',
    address: { line1: '1 High St', city: 'London', postalCode: 'EC1A 1BB', countryCode: 'GB' },
    estimatedAnnualRevenueUSD: 'TEN_MILLION_TO_FIFTY_MILLION',
    expectedMonthlyPaymentsUSD: 250000,
    operatesInProhibitedCountries: false,
    highRiskActivities: [],
    conductsMoneyServices: false,
    actingAsIntermediary: false,
    sourceOfFundsDescription: 'Revenue from sales of machine parts',
    documents: [
      { type: 'PROOF_OF_NATURE_OF_BUSINESS', fileUrl: 'https://files.example/invoice.pdf' },
      { type: 'PROOF_OF_ADDRESS', fileUrl: 'https://files.example/utility.pdf' },
      { type: 'PROOF_OF_SOURCE_OF_FUNDS', fileUrl: 'https://files.example/contract.pdf' },
    ],
    associatedPersons: [{ firstName: 'Bo', lastName: 'Lee', title: 'Director', countryCode: 'GB' }],
  };
}

export function bankAccountBody(): Record<string, unknown> {
  return {
    type: 'EXTERNAL_BANK_ACCOUNT',
    currencyCode: 'USD',
    rails: ['ACH', 'DOMESTIC_WIRE'],
    bank: { name: 'First Bank', countryCode: 'US', accountNumber: '123456789', routingNumber: '021000021' },
    accountHolder: {
      type: 'BUSINESS',
      businessName: 'Acme',
      address: { countryCode: 'US', postalCode: '10001', stateRegionOrProvince: 'NY' },
    },
  };
}

export function paymentBody(): Record<string, unknown> {
  return {
    source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xabc' },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
    reference: 'inv-42',
    paymentReason: 'PURCHASE_OF_GOODS',
  };
}

export function day(iso: string): Date {
  return new Date(`${iso}T00:00:00.000Z`);
}
/** The last millisecond before the UTC day `iso` starts. */
export function justBefore(iso: string): Date {
  return new Date(day(iso).getTime() - 1);
}
