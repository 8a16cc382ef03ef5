// startPayment's own checks, without Temporal: currency codes, rail/currency pairs, the repo's sample request.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkPaymentInput,
  currencyViolations,
  PaymentRequestInvalidError,
} from '../../../src/client/payment-request';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { benignIfRefused, inRequestTerms } from '../../../activities/payment-activities';

const body = (source: Record<string, unknown>, destination: Record<string, unknown>) => ({
  source,
  destination,
});

test('currency codes: ISO 4217 or a named stablecoin; a typo is refused on the field the caller wrote', () => {
  expect(
    currencyViolations(body({ currencyCode: 'USDC', rail: 'POLYGON' }, { currencyCode: 'BRL', rail: 'PIX' })),
  ).toEqual([]);
  expect(
    currencyViolations(body({ currencyCode: 'USDX', rail: 'POLYGON' }, { currencyCode: 'BRL', rail: 'PIX' })),
  ).toEqual([expect.objectContaining({ path: 'source.currencyCode', rule: 'CURRENCY_UNKNOWN' })]);
  expect(
    currencyViolations(
      body({ currencyCode: 'USDC', rail: 'POLYGON' }, { currencyCode: 'XYZ', rail: 'SWIFT' }),
    ),
  ).toEqual([expect.objectContaining({ path: 'destination.currencyCode', rule: 'CURRENCY_UNKNOWN' })]);
});

test('rail/currency pairs no corridor can carry are refused on the rail', () => {
  const rule = (s: Record<string, unknown>, d: Record<string, unknown>) =>
    currencyViolations(body(s, d)).map((v) => `${v.path} ${v.rule}`);
  expect(rule({ currencyCode: 'USD', rail: 'POLYGON' }, { currencyCode: 'BRL', rail: 'PIX' })).toEqual([
    'source.rail RAIL_NOT_FOR_CURRENCY',
  ]);
  expect(rule({ currencyCode: 'USDC', rail: 'POLYGON' }, { currencyCode: 'USD', rail: 'PIX' })).toEqual([
    'destination.rail RAIL_NOT_FOR_CURRENCY',
  ]);
  expect(rule({ currencyCode: 'USDC', rail: 'ACH' }, { currencyCode: 'EUR', rail: 'SWIFT' })).toEqual([
    'source.rail RAIL_NOT_FOR_CURRENCY',
  ]);
  expect(rule({ currencyCode: 'EUR', rail: 'LOCAL' }, { currencyCode: 'GBP', rail: 'SWIFT' })).toEqual([]);
});

test('examples/payment-request.json (the sample for `xborder pay`) passes every check', () => {
  const file = path.resolve(__dirname, '..', '..', '..', 'examples', 'payment-request.json');
  const request = JSON.parse(readFileSync(file, 'utf8')) as never;
  expect(() => checkPaymentInput({ paymentKey: 'first-1', request }, new Date())).not.toThrow();
});

test('a value JSON cannot carry is a typed refusal, not a crash', () => {
  expect(() => checkPaymentInput({ paymentKey: 'k', request: { amount: BigInt(1) } }, new Date())).toThrow(
    PaymentRequestInvalidError,
  );
});

test("a refusal of the rate names the request's field, not the query parameter", () => {
  const err = {
    type: 'VALIDATION_ERROR',
    fields: [{ path: 'destinationRail', rule: 'CORRIDOR_UNSUPPORTED', message: 'no corridor' }],
  };
  expect(inRequestTerms(err)).toMatchObject({
    fields: [{ path: 'destination.rail', rule: 'CORRIDOR_UNSUPPORTED' }],
  });
});

test("a rate refused on the caller's fields is a BENIGN failure (no WARN stack in the worker log); other failures are left as they are", () => {
  const refused = ApplicationFailure.create({
    type: 'VALIDATION_ERROR',
    message: 'no corridor',
    nonRetryable: true,
    details: [{ fields: [{ path: 'destination.rail', rule: 'CORRIDOR_UNSUPPORTED', message: 'x' }] }],
  });
  expect(benignIfRefused(refused)).toMatchObject({
    type: 'VALIDATION_ERROR',
    nonRetryable: true,
    category: ApplicationFailureCategory.BENIGN,
  });
  const outage = ApplicationFailure.create({ type: 'SERVER_ERROR', message: '503', nonRetryable: false });
  expect(benignIfRefused(outage)).toBe(outage);
});
