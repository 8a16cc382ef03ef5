// Business keys become workflow IDs, which are never encrypted: keys that look like personal data are refused.
import { randomUUID } from 'node:crypto';
import { personalDataInKey, refusePersonalDataInKey } from '../../src/codec/identifiers';
import { startPayment, startTransfer } from '../../src/client/payments';
import type { Client } from '@temporalio/client';

it('spots an email address or a phone number in a key, not an opaque id', () => {
  expect(personalDataInKey('ana.silva@example.org')).toBe('an email address');
  expect(personalDataInKey('order-ana.silva@example.org-1')).toBe('an email address');
  expect(personalDataInKey('cust-+55 11 99999-9999')).toBe('a phone number');
  for (const ok of ['order-8812', 'demo-20261123174040-tejd-payment', 'cus_8f2a', '2026-11-23-001'])
    expect(personalDataInKey(ok)).toBeNull();
  expect(() => refusePersonalDataInKey('paymentKey', 'x@y.io')).toThrow(
    /paymentKey .*email.*never encrypted/,
  );
});

it('spots a phone number written for people, a CPF and an IBAN, and still lets UUIDs, dates and order numbers through', () => {
  for (const phone of [
    'c-(11) 99999-9999',
    'cust-11 99999-9999',
    '555-123-4567',
    '555.123.4567',
    'ref 020 7946 0958',
  ]) {
    expect([phone, personalDataInKey(phone)]).toEqual([phone, 'a phone number']);
  }
  for (const cpf of ['123.456.789-09', '123456789-09', 'payer-529.982.247-25']) {
    expect([cpf, personalDataInKey(cpf)]).toEqual([cpf, 'a CPF (Brazilian tax id)']);
  }
  for (const iban of [
    'DE89370400440532013000',
    'acct-GB82WEST12345698765432',
    'GB82 WEST 1234 5698 7654 32',
    'BR1800360305000010009795493C1',
  ]) {
    expect([iban, personalDataInKey(iban)]).toEqual([iban, 'an IBAN']);
  }
  const opaque = [
    'order-8812',
    'demo-20261123174040-tejd-payment',
    'cus_8f2a',
    '2026-11-23-001',
    'inv-2026-000123',
    'order-1732512345678', // epoch milliseconds
    'batch-1732512345',
    'pay-2026-11-23T17:40:00',
    'DE-order-12345',
    '123e4567-e89b-12d3-a456-426614174000',
    ...Array.from({ length: 500 }, () => randomUUID()),
    ...Array.from({ length: 200 }, () => `payment-${randomUUID()}`),
  ];
  for (const ok of opaque) expect([ok, personalDataInKey(ok)]).toEqual([ok, null]);
});

it('order numbers of any length are keys: bare digit runs pass (an order number as often as a phone number)', () => {
  const orders = [
    '4000000123', // 10 digits: refused as a phone number before
    '5432109876543', // a 13-digit Shopify order id
    'order-4000000123-attempt-2', // the key scheme docs/backend.md recommends
    'order-5432109876543-attempt-1',
    'shop-123456789012345',
    '12345678909', // 11 digits with a CPF's check digits: bare, it is an order number too
  ];
  for (const ok of orders) expect([ok, personalDataInKey(ok)]).toEqual([ok, null]);
});

it('startPayment and startTransfer refuse such keys before anything reaches Temporal', async () => {
  const client = {} as Client; // never used: the refusal comes first
  const request = {
    customerId: 'cus_1',
    source: { currencyCode: 'USDC', amount: 1, rail: 'POLYGON' },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
    paymentReason: 'GIFTS',
  } as const;
  await expect(
    startPayment(client, { paymentKey: 'ana.silva@example.org', request }, { taskQueue: 'q' }),
  ).rejects.toThrow(/email/);
  await expect(
    startTransfer(
      client,
      {
        transferKey: 't-1',
        customer: { customerKey: '+5511999999999', body: {} },
        account: { accountId: 'acc_1' },
        payment: { request },
      },
      { taskQueue: 'q' },
    ),
  ).rejects.toThrow(/customerKey .*phone/);
});
