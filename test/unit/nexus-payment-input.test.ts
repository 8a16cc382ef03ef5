// The Nexus startPayment operation checks its input with the client's own validation (checkPaymentInput) and
// refuses a bad one as a non-retryable BAD_REQUEST naming the type PAYMENT_REQUEST_INVALID and every violation.
import * as nexus from 'nexus-rpc';
import { ApplicationFailure } from '@temporalio/common';
import { checkNexusPaymentInput } from '../../src/nexus/handlers';
import { xborderFailureType } from '../../src/nexus/service';
import { demoPaymentRequest } from '../support/demo-payment-request';

const AS_OF = new Date('2026-03-02T12:00:00Z');

function refusal(input: unknown): nexus.HandlerError {
  try {
    checkNexusPaymentInput(input, AS_OF);
  } catch (error) {
    if (error instanceof nexus.HandlerError) return error;
    throw error;
  }
  throw new Error('accepted');
}

it('a valid input is returned as the workflow will receive it', () => {
  const parsed = checkNexusPaymentInput(
    { paymentKey: 'order-k1', request: demoPaymentRequest('order-k1') },
    AS_OF,
  );
  expect(parsed).toMatchObject({
    paymentKey: 'order-k1',
    request: { source: { currencyCode: 'USDC', amount: 100 } },
  });
});

it('a missing field: BAD_REQUEST, not retryable, type PAYMENT_REQUEST_INVALID with the violations', () => {
  const error = refusal({
    paymentKey: 'order-k2',
    request: { ...demoPaymentRequest('order-k2'), paymentReason: undefined },
  });
  expect(error.type).toBe('BAD_REQUEST');
  expect(error.retryable).toBe(false);
  const cause = error.cause as ApplicationFailure;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect(cause.type).toBe('PAYMENT_REQUEST_INVALID');
  expect(cause.nonRetryable).toBe(true);
  expect(cause.details?.[0]).toEqual({
    violations: [expect.objectContaining({ path: 'request.paymentReason', rule: 'SCHEMA' })],
  });
  expect(xborderFailureType(error)).toBe('PAYMENT_REQUEST_INVALID');
});

it('a key that looks like personal data is refused before anything starts', () => {
  const error = refusal({ paymentKey: 'jane.doe@example.com', request: demoPaymentRequest('r1') });
  expect((error.cause as ApplicationFailure).details?.[0]).toEqual({
    violations: [expect.objectContaining({ path: 'paymentKey', rule: 'PERSONAL_DATA_IN_KEY' })],
  });
});

it('a rail that cannot carry the currency is refused with the client rule', () => {
  const request = demoPaymentRequest('r2', 100, {
    destination: { currencyCode: 'BRL', rail: 'ACH', accountId: 'acc_1' },
  });
  const error = refusal({ paymentKey: 'order-k3', request });
  expect((error.cause as ApplicationFailure).details?.[0]).toEqual({
    violations: expect.arrayContaining([
      expect.objectContaining({ path: 'request.destination.rail', rule: 'RAIL_NOT_FOR_CURRENCY' }),
    ]),
  });
});

it('not an object at all: refused, not a crash', () => {
  expect(refusal('pay me').type).toBe('BAD_REQUEST');
  expect(refusal(null).type).toBe('BAD_REQUEST');
});

it('xborderFailureType reads the type through a chain of causes and ignores other types', () => {
  const wrapped = {
    type: 'NexusOperationFailure',
    cause: { type: 'OperationError', cause: { type: 'IDEMPOTENCY_KEY_REUSED' } },
  };
  expect(xborderFailureType(wrapped)).toBe('IDEMPOTENCY_KEY_REUSED');
  expect(xborderFailureType({ type: 'SomethingElse' })).toBeNull();
  expect(xborderFailureType(undefined)).toBeNull();
});
