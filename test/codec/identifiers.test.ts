// issue 13: business keys become workflow IDs, which are never encrypted: keys that look like personal data are refused.
import { personalDataInKey, refusePersonalDataInKey } from '../../src/codec/identifiers';
import { startPayment, startTransfer } from '../../src/client/payments';
import type { Client } from '@temporalio/client';

it('spots an email address or a phone number in a key, not an opaque id', () => {
  expect(personalDataInKey('ana.silva@example.org')).toBe('an email address');
  expect(personalDataInKey('order-ana.silva@example.org-1')).toBe('an email address');
  expect(personalDataInKey('cust-+55 11 99999-9999')).toBe('a phone number');
  for (const ok of ['order-8812', 'demo-20261123174040-tejd-payment', 'cus_8f2a', '2026-11-23-001']) expect(personalDataInKey(ok)).toBeNull();
  expect(() => refusePersonalDataInKey('paymentKey', 'x@y.io')).toThrow(/paymentKey .*email.*never encrypted/);
});

it('startPayment and startTransfer refuse such keys before anything reaches Temporal', async () => {
  const client = {} as Client; // never used: the refusal comes first
  const request = { customerId: 'cus_1', source: { currencyCode: 'USDC', amount: 1, rail: 'POLYGON' }, destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' }, paymentReason: 'GIFTS' };
  await expect(startPayment(client, { paymentKey: 'ana.silva@example.org', request }, { taskQueue: 'q' })).rejects.toThrow(/email/);
  await expect(
    startTransfer(client, { transferKey: 't-1', customer: { customerKey: '+5511999999999', body: {} }, account: { accountId: 'acc_1' }, payment: { request } }, { taskQueue: 'q' }),
  ).rejects.toThrow(/customerKey .*phone/);
});
