import { PaymentSchema, TransitionalPaymentSchema } from '../../src/contract';
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  unfundedPayment,
  until,
  usdBank,
  usdVirtual,
} from './harness';

const running: Running[] = [];
afterAll(async () => {
  await Promise.all(running.map((sb) => sb.close()));
});

/** A sandbox at `asOf` with an approved customer, a USD bank account and a USD virtual account holding 1000. */
async function world(asOf: string, options: Parameters<typeof sandbox>[0] = {}) {
  const sb = await sandbox({ asOf, ...options });
  running.push(sb);
  const c = client(sb);
  const customerId = await approvedCustomer(sb);
  const bankId = await account(sb, usdBank(customerId));
  const virtualId = await account(sb, usdVirtual(customerId));
  sb.state.data.balances[virtualId] = 1000;
  const status = async (id: string) => (await c.get(`/v1/payments/${id}`)).body;
  const events = (id: string) =>
    sb.state.recentEvents.filter((e) => e.data.id === id).map((e) => `${e.type}:${String(e.data.status)}`);
  return { sb, c, customerId, bankId, virtualId, status, events };
}

describe('state machine (spec: States and transitions), from 2026-03-30', () => {
  const asOf = '2026-04-01T10:00:00.000Z'; // a Wednesday

  it('a new unfunded payment is AWAITING_FUNDS with funding instructions and a 15-minute quote', async () => {
    const w = await world(asOf);
    const res = await w.c.post('/v1/payments', unfundedPayment(w.bankId));
    expect(res.status).toBe(201);
    const p = PaymentSchema.parse(res.body);
    const future = await w.c.post(`/sandbox/payments/${p.id}/fund`, { sentAt: '2030-01-01T00:00:00.000Z' });
    expect(future.body.error.fields[0].path).toBe('sentAt');
    expect(p.status).toBe('AWAITING_FUNDS');
    expect(p.type).toBe('EXTERNAL');
    expect(Date.parse(p.quote.expiresAt) - Date.parse(p.lifecycle.createdAt!)).toBe(15 * 60_000);
    expect(p.fundingInstructions).toMatchObject({
      rail: 'POLYGON',
      amount: 100,
      currencyCode: 'USDC',
      fromAddress: '0xabc',
    });
    expect(p.fundingInstructions.toAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(p.fee).toBeGreaterThan(0);
    expect(p.destination.amount).toBeCloseTo((100 - p.fee) * p.quote.exchangeRate, 2);
    expect(w.events(p.id)).toEqual(['payment.created:AWAITING_FUNDS']);
  });

  it('row 3: quote.expiresAt passes without funding → status unchanged', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('PT16M');
    expect((await w.status(id)).status).toBe('AWAITING_FUNDS');
  });

  it('row 1: no funds within 3 business days → EXPIRED (Wed 10:00 → Mon 10:00)', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    const created = Date.parse((await w.status(id)).lifecycle.createdAt);
    await w.c.setNow(new Date(created + 5 * 86_400_000 - 1000).toISOString()); // Monday 09:59:59
    expect((await w.status(id)).status).toBe('AWAITING_FUNDS');
    await w.c.advance('PT2S');
    const p = await w.status(id);
    expect(p.status).toBe('EXPIRED');
    expect(p.lifecycle.expiredAt).toBe(new Date(created + 5 * 86_400_000).toISOString());
    expect(w.events(id)).toEqual(['payment.created:AWAITING_FUNDS', 'payment.updated:EXPIRED']);
  });

  it('row 2: funds sent before quote expiry with a late notice → PENDING, then PROCESSING, SENT, COMPLETED', async () => {
    const w = await world(asOf);
    const created = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body;
    await w.c.advance('PT1H'); // the notice arrives long after the quote expired
    const sentAt = new Date(Date.parse(created.quote.expiresAt) - 1000).toISOString();
    const funded = await w.c.post(`/sandbox/payments/${created.id}/fund`, { sentAt });
    expect(funded.status).toBe(200);
    expect(funded.body.status).toBe('PENDING');
    expect(funded.body.source.transactionHash).toMatch(/^0x/);
    expect((await w.c.post(`/sandbox/payments/${created.id}/fund`, {})).status).toBe(409); // already funded
    await w.c.advance('PT1S');
    expect((await w.status(created.id)).status).toBe('PROCESSING');
    await w.c.advance('PT1S');
    const sent = await w.status(created.id);
    expect(sent.status).toBe('SENT');
    expect(sent.lifecycle.sentAt).not.toBeNull();
    expect(sent.tracking.traceNumber).toMatch(/^\d{15}$/); // ACH
    await w.c.advance('PT1S');
    const done = await w.status(created.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.lifecycle.completedAt).not.toBeNull();
    expect(done.quote.exchangeRate).toBe(created.quote.exchangeRate); // the quote is honoured
    expect(w.events(created.id)).toEqual([
      'payment.created:AWAITING_FUNDS',
      'payment.updated:PENDING',
      'payment.updated:PROCESSING',
      'payment.updated:SENT',
      'payment.updated:COMPLETED',
    ]);
  });

  it('a clock move fires every step that became due, in order, on the logical timeline', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.post(`/sandbox/payments/${id}/fund`, {});
    const fundedAt = Date.parse(
      w.sb.state.recentEvents.find((e) => e.data.id === id && e.data.status === 'PENDING')!.createdAt,
    );
    await w.c.advance('P1D');
    const p = await w.status(id);
    expect(p.status).toBe('COMPLETED');
    expect(Date.parse(p.lifecycle.sentAt) - fundedAt).toBe(2000);
    expect(Date.parse(p.lifecycle.completedAt) - Date.parse(p.lifecycle.sentAt)).toBe(1000);
  });

  it('steps also progress in real time without clock moves', async () => {
    const w = await world(asOf, { stepDelaysMs: { toProcessing: 60, toSent: 60, toCompleted: 60 } });
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.post(`/sandbox/payments/${id}/fund`, {});
    await until(async () => (await w.status(id)).status === 'COMPLETED', 3000);
  });

  it('row 4: funds arriving for an EXPIRED payment → stays EXPIRED, refunded with FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('P6D');
    expect((await w.status(id)).status).toBe('EXPIRED');
    const res = await w.c.post(`/sandbox/payments/${id}/fund`, {});
    expect(res.body.status).toBe('EXPIRED');
    expect(res.body.error.code).toBe('FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED');
    expect(res.body.statusReasons).toEqual(['FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED']);
    expect(res.body.lifecycle.refundedAt).not.toBeNull();
    expect(w.events(id).at(-1)).toBe('payment.updated:EXPIRED');
  });

  it('gap: funds sent after quote expiry while still AWAITING_FUNDS → refunded as in row 4: status kept, refundedAt and FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('PT20M');
    const res = await w.c.post(`/sandbox/payments/${id}/fund`, {});
    expect(res.body.status).toBe('AWAITING_FUNDS');
    expect(res.body.error.code).toBe('FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED');
    expect(res.body.lifecycle.refundedAt).not.toBeNull();
    expect(w.events(id)).toEqual(['payment.created:AWAITING_FUNDS', 'payment.updated:AWAITING_FUNDS']);
    // a second late transfer is refunded too (refundedAt moves to it), not refused
    await w.c.advance('PT1M');
    const again = await w.c.post(`/sandbox/payments/${id}/fund`, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'AWAITING_FUNDS',
      error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' },
    });
    expect(Date.parse(again.body.lifecycle.refundedAt)).toBeGreaterThan(
      Date.parse(res.body.lifecycle.refundedAt),
    );
    // the payment still expires at its funding deadline (3 business days), keeping the refund
    await w.c.advance('P6D');
    const expired = await w.status(id);
    expect(expired).toMatchObject({
      status: 'EXPIRED',
      error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' },
    });
    expect(expired.lifecycle.refundedAt).toBe(again.body.lifecycle.refundedAt);
  });

  it('rule 1: source.accountId pulls funds at once (PAYOUT), quote expiry does not apply; short balance → 422 INSUFFICIENT_FUNDS, no record', async () => {
    const w = await world(asOf);
    const body = {
      source: { currencyCode: 'USD', amount: 400, rail: 'ACH', accountId: w.virtualId },
      destination: { currencyCode: 'USD', rail: 'ACH', accountId: w.bankId },
      paymentReason: 'RENT',
    };
    const res = await w.c.post('/v1/payments', body);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('PENDING');
    expect(res.body.type).toBe('PAYOUT');
    expect(res.body.fundingInstructions.toAddress).toBeNull();
    expect(w.sb.state.data.balances[w.virtualId]).toBe(600);
    await w.c.advance('PT1H');
    expect((await w.status(res.body.id)).status).toBe('COMPLETED');
    expect((await w.c.post(`/sandbox/payments/${res.body.id}/fund`, {})).status).toBe(409);
    const short = await w.c.post('/v1/payments', { ...body, source: { ...body.source, amount: 601 } });
    expect(short.status).toBe(422);
    expect(short.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(Object.keys(w.sb.state.data.payments)).toHaveLength(1);
  });

  it('types: INTERNAL (virtual → virtual) credits the destination; PAYIN (funded → virtual)', async () => {
    const w = await world(asOf);
    const other = await account(w.sb, usdVirtual(w.customerId));
    const internal = await w.c.post('/v1/payments', {
      source: { currencyCode: 'USD', amount: 100, rail: 'ACH', accountId: w.virtualId },
      destination: { currencyCode: 'USD', rail: 'ACH', accountId: other },
      paymentReason: 'RENT',
    });
    expect(internal.body.type).toBe('INTERNAL');
    const payin = await w.c.post('/v1/payments', unfundedPayment(other));
    expect(payin.body.type).toBe('PAYIN');
    await w.c.advance('PT1M');
    expect(w.sb.state.data.balances[other]).toBe(internal.body.destination.amount);
  });

  it('failure codes: magic account number 000000000 → FAILED INVALID_EXTERNAL_ACCOUNT_NUMBER, pulled funds refunded', async () => {
    const w = await world(asOf);
    const bad = await account(w.sb, usdBank(w.customerId, '000000000'));
    const res = await w.c.post('/v1/payments', {
      source: { currencyCode: 'USD', amount: 100, rail: 'ACH', accountId: w.virtualId },
      destination: { currencyCode: 'USD', rail: 'ACH', accountId: bad },
      paymentReason: 'RENT',
    });
    expect(w.sb.state.data.balances[w.virtualId]).toBe(900);
    await w.c.advance('PT1M');
    const p = await w.status(res.body.id);
    expect(p.status).toBe('FAILED');
    expect(p.error.code).toBe('INVALID_EXTERNAL_ACCOUNT_NUMBER');
    expect(p.lifecycle.refundedAt).not.toBeNull();
    expect(p.lifecycle.sentAt).toBeNull();
    expect(w.sb.state.data.balances[w.virtualId]).toBe(1000);
  });

  it('magic 111111111 → COMPLETED, then REFUNDED with FUNDS_RETURNED_BY_RECEIVING_BANK; reference FAIL:<code> fails with that code', async () => {
    const w = await world(asOf);
    const returned = await account(w.sb, usdBank(w.customerId, '111111111'));
    const a = (await w.c.post('/v1/payments', unfundedPayment(returned))).body.id;
    const b = (
      await w.c.post(
        '/v1/payments',
        unfundedPayment(w.bankId, { reference: 'FAIL:RFI_NOT_ANSWERED_IN_TIME' }),
      )
    ).body.id;
    await w.c.post(`/sandbox/payments/${a}/fund`, {});
    await w.c.post(`/sandbox/payments/${b}/fund`, {});
    await w.c.advance('PT1M');
    const pa = await w.status(a);
    expect(pa.status).toBe('REFUNDED');
    expect(pa.error.code).toBe('FUNDS_RETURNED_BY_RECEIVING_BANK');
    expect(w.events(a)).toContain('payment.updated:COMPLETED');
    expect((await w.status(b)).error.code).toBe('RFI_NOT_ANSWERED_IN_TIME');
  });

  it.each([
    ['222222222', {}, 'EXTERNAL_ACCOUNT_DEPOSIT_LIMIT_EXCEEDED'],
    ['333333333', {}, 'RFI_NOT_ANSWERED_IN_TIME'],
    ['444444444', {}, 'INVALID_EXTERNAL_ACCOUNT_HOLDER_ADDRESS'],
    ['123456789012', { firstName: 'Invalid', lastName: 'Name' }, 'INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME'],
    [
      '123456789012',
      { address: { line1: 'PO Box 12', stateRegionOrProvince: 'NY', countryCode: 'US' } },
      'EXTERNAL_ACCOUNT_HOLDER_ADDRESS_IS_PMB_OR_PO_BOX',
    ],
  ])('magic destination %s %j → FAILED %s', async (accountNumber, holder, code) => {
    const w = await world(asOf);
    const body = usdBank(w.customerId, accountNumber);
    const dest = await account(w.sb, { ...body, accountHolder: { ...body.accountHolder, ...holder } });
    const id = (await w.c.post('/v1/payments', unfundedPayment(dest))).body.id;
    await w.c.post(`/sandbox/payments/${id}/fund`, {});
    await w.c.advance('PT1M');
    expect(await w.status(id)).toMatchObject({ status: 'FAILED', error: { code }, statusReasons: [code] });
  });

  it('control: fail with a code and return after SENT; invalid states → 409', async () => {
    const w = await world(asOf);
    const a = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    const failed = await w.c.post(`/sandbox/payments/${a}/fail`, {
      code: 'EXTERNAL_ACCOUNT_DEPOSIT_LIMIT_EXCEEDED',
    });
    expect(failed.body).toMatchObject({
      status: 'FAILED',
      error: { code: 'EXTERNAL_ACCOUNT_DEPOSIT_LIMIT_EXCEEDED' },
    });
    expect(failed.body.lifecycle.refundedAt).toBeNull(); // no funds were held
    expect((await w.c.post(`/sandbox/payments/${a}/return`, {})).status).toBe(409);
    expect((await w.c.post(`/sandbox/payments/${a}/fail`, { code: 'NOT_A_CODE' })).status).toBe(400);
    expect((await w.c.post('/sandbox/payments/pay_missing/fund', {})).status).toBe(404);
    const b = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.post(`/sandbox/payments/${b}/fund`, {});
    await w.c.advance('PT2S');
    const ret = await w.c.post(`/sandbox/payments/${b}/return`, {});
    expect(ret.body).toMatchObject({
      status: 'REFUNDED',
      error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK' },
    });
    expect(ret.body.lifecycle.refundedAt).not.toBeNull();
    await w.c.advance('PT1M');
    expect((await w.status(b)).status).toBe('REFUNDED'); // a stale step does not move it on
  });

  it('payments need an approved customer and a known corridor', async () => {
    const w = await world(asOf);
    const pendingCustomer = (
      await w.c.post('/v1/customers', {
        type: 'INDIVIDUAL',
        firstName: 'Pat',
        lastName: 'Review',
        birthDate: '1990-01-01',
        email: 'pat@example.com',
        phone: '+1212555',
        address: { countryCode: 'US' },
      })
    ).body.id;
    const acc = await account(w.sb, usdBank(pendingCustomer));
    const res = await w.c.post('/v1/payments', unfundedPayment(acc));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[0]).toMatchObject({ path: 'customerId', rule: 'CUSTOMER_NOT_APPROVED' });
    const noCorridor = await w.c.post(
      '/v1/payments',
      unfundedPayment(w.bankId, { destination: { currencyCode: 'USD', rail: 'PIX', accountId: w.bankId } }),
    );
    expect(noCorridor.body.error.fields.map((f: { rule: string }) => f.rule)).toContain(
      'CORRIDOR_UNSUPPORTED',
    );
    const unknownAccount = await w.c.post('/v1/payments', unfundedPayment('acc_missing'));
    expect(unknownAccount.body.error.fields.map((f: { rule: string }) => f.rule)).toContain(
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('automatic conversion: a deposit to a virtual account with liquidationAccountId → one PAYIN and one conversion PAYOUT', async () => {
    const w = await world(asOf);
    const wallet = await account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['POLYGON'],
      walletAddress: '0x2222222222222222222222222222222222222222',
      accountHolder: {
        type: 'INDIVIDUAL',
        firstName: 'Ana',
        lastName: 'Lima',
        address: { countryCode: 'US' },
      },
    });
    const auto = await account(w.sb, usdVirtual(w.customerId, { liquidationAccountId: wallet }));
    const res = await w.c.post(`/sandbox/accounts/${auto}/deposit`, { amount: 250 });
    expect(res.status).toBe(201);
    expect(res.body.payin).toMatchObject({
      type: 'PAYIN',
      status: 'COMPLETED',
      destination: { accountId: auto, amount: 250 },
    });
    expect(res.body.conversion).toMatchObject({
      type: 'PAYOUT',
      status: 'PENDING',
      paymentReason: 'AUTO_LIQUIDATION',
      source: { accountId: auto, currencyCode: 'USD' },
      destination: { accountId: wallet, currencyCode: 'USDC', rail: 'POLYGON' },
    });
    expect(w.sb.state.recentEvents.filter((e) => e.type === 'payment.created').map((e) => e.data.id)).toEqual(
      [res.body.payin.id, res.body.conversion.id],
    );
    await w.c.advance('PT1M');
    const conversion = await w.status(res.body.conversion.id);
    expect(conversion.status).toBe('COMPLETED');
    expect(conversion.destination.transactionHash).toMatch(/^0x/);
    expect(w.sb.state.data.balances[auto]).toBe(0);
    const plain = await w.c.post(`/sandbox/accounts/${w.virtualId}/deposit`, { amount: 5 });
    expect(plain.body.conversion).toBeNull();
    expect(w.sb.state.data.balances[w.virtualId]).toBe(1005);
    expect((await w.c.post(`/sandbox/accounts/${w.bankId}/deposit`, { amount: 5 })).status).toBe(400);
  });
});

describe('state machine before 2026-03-30 (legacy rules)', () => {
  const asOf = '2026-03-20T10:00:00.000Z';

  it('rule 2: without source.accountId, AWAITING_FUNDS → EXPIRED at quote expiry', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('PT14M');
    expect((await w.status(id)).status).toBe('AWAITING_FUNDS');
    await w.c.advance('PT2M');
    expect((await w.status(id)).status).toBe('EXPIRED');
  });

  it('row 5: a late notice for funds sent before the deadline → SENT, then COMPLETED', async () => {
    const w = await world(asOf);
    const p = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body;
    await w.c.advance('PT30M');
    expect((await w.status(p.id)).status).toBe('EXPIRED');
    const res = await w.c.post(`/sandbox/payments/${p.id}/fund`, {
      sentAt: new Date(Date.parse(p.quote.expiresAt) - 60_000).toISOString(),
    });
    expect(res.body.status).toBe('SENT');
    await w.c.advance('PT2S');
    expect((await w.status(p.id)).status).toBe('COMPLETED');
    expect(w.events(p.id)).toEqual([
      'payment.created:AWAITING_FUNDS',
      'payment.updated:EXPIRED',
      'payment.updated:SENT',
      'payment.updated:COMPLETED',
    ]);
  });

  it('row 4 before the date: funds sent after expiry → stays EXPIRED and refunded', async () => {
    const w = await world(asOf);
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('PT30M');
    const res = await w.c.post(`/sandbox/payments/${id}/fund`, {});
    expect(res.body.status).toBe('EXPIRED');
    expect(res.body.lifecycle.refundedAt).not.toBeNull();
  });

  it('a payment created before 2026-03-30 whose quote expires after it follows the rule in force at expiry', async () => {
    const w = await world('2026-03-29T23:50:00.000Z');
    const id = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    await w.c.advance('PT20M'); // quote expires 2026-03-30T00:05
    expect((await w.status(id)).status).toBe('AWAITING_FUNDS');
  });
});

describe('dated rules of payments, both sides of each date', () => {
  it('DEPOSITS_REPLACED_BY_PAYIN (2025-09-08): a deposit record and account.deposit before, a PAYIN payment and payment.created from the date', async () => {
    const w = await world('2025-09-07T12:00:00.000Z');
    const before = await w.c.post(`/sandbox/accounts/${w.virtualId}/deposit`, { amount: 10 });
    expect(before.body).toMatchObject({
      payin: null,
      deposit: { accountId: w.virtualId, amount: 10, currencyCode: 'USD' },
      balance: 1010,
    });
    expect(w.sb.state.recentEvents.at(-1)).toMatchObject({
      type: 'account.deposit',
      data: { id: before.body.deposit.id },
    });
    expect(Object.values(w.sb.state.data.payments)).toHaveLength(0);
    await w.c.setNow('2025-09-08T00:00:00.000Z');
    const after = await w.c.post(`/sandbox/accounts/${w.virtualId}/deposit`, { amount: 10 });
    expect(after.body).toMatchObject({
      deposit: null,
      payin: { type: 'PAYIN', status: 'COMPLETED' },
      balance: 1020,
    });
    expect(w.sb.state.recentEvents.at(-1)).toMatchObject({
      type: 'payment.created',
      data: { id: after.body.payin.id },
    });
  });

  it('PAYLOAD_STEP_TWO (2026-03-30): transitional fields before, current shape only from the date', async () => {
    const w = await world('2026-03-29T12:00:00.000Z');
    const created = await w.c.post('/v1/payments', unfundedPayment(w.bankId, { reference: 'inv-1' }));
    const t = TransitionalPaymentSchema.parse(created.body);
    expect(t).toMatchObject({
      entityId: w.customerId,
      paymentType: 'EXTERNAL',
      memo: 'inv-1',
      reason: 'GIFTS',
      documentReference: null,
    });
    expect(t.source.chain).toBe('POLYGON');
    expect(t.destination.chain).toBeNull();
    expect(created.body.customer).toBeUndefined(); // GET responses only
    const got = (await w.c.get(`/v1/payments/${created.body.id}`)).body;
    expect(got.customer).toMatchObject({ id: w.customerId, type: 'INDIVIDUAL', name: 'Ana Lima' });
    expect(got.destination.account).toMatchObject({
      id: w.bankId,
      accountNumber: '123456789012',
      bankName: 'Chase',
    });
    const event = w.sb.state.recentEvents.find((e) => e.data.id === created.body.id)!;
    expect(event.data.entityId).toBe(w.customerId);
    await w.c.setNow('2026-03-30T00:00:00.000Z');
    const after = (await w.c.get(`/v1/payments/${created.body.id}`)).body;
    for (const old of [
      'entityId',
      'paymentType',
      'memo',
      'reason',
      'exchangeRate',
      'createdAt',
      'customer',
      'updatedAt',
    ])
      expect(after).not.toHaveProperty(old);
    expect(after.source).not.toHaveProperty('chain');
    expect(after.destination).not.toHaveProperty('account');
    PaymentSchema.parse(after);
  });

  it('REASON_OTHER_REFUSED (2026-03-30) and PAYMENT_REASONS_ENUM (2026-07-31)', async () => {
    const w = await world('2026-03-29T12:00:00.000Z');
    expect(
      (await w.c.post('/v1/payments', unfundedPayment(w.bankId, { paymentReason: 'OTHER' }))).status,
    ).toBe(201);
    await w.c.setNow('2026-03-30T00:00:00.000Z');
    const other = await w.c.post('/v1/payments', unfundedPayment(w.bankId, { paymentReason: 'OTHER' }));
    expect(other.status).toBe(400);
    expect(other.body.error.fields[0]).toMatchObject({ path: 'paymentReason', rule: 'REASON_OTHER_REFUSED' });
    expect(
      (await w.c.post('/v1/payments', unfundedPayment(w.bankId, { paymentReason: 'REMITTANCE' }))).status,
    ).toBe(201);
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const removed = await w.c.post(
      '/v1/payments',
      unfundedPayment(w.bankId, { paymentReason: 'REMITTANCE' }),
    );
    expect(removed.status).toBe(400);
    expect(removed.body.error.fields[0].rule).toBe('PAYMENT_REASONS_ENUM');
  });

  it('RAILS_ENUM_ENFORCED (2026-07-31): WIRE accepted and stored as SWIFT before, 400 from the date', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    // an account reached on SWIFT (a US account's default rails are ACH, ACH_SAME_DAY, DOMESTIC_WIRE)
    const swiftId = await account(w.sb, { ...usdBank(w.customerId), rails: ['ACH', 'SWIFT'] });
    const body = unfundedPayment(swiftId, {
      destination: { currencyCode: 'USD', rail: 'WIRE', accountId: swiftId },
    });
    const before = await w.c.post('/v1/payments', body);
    expect(before.status).toBe(201);
    expect(before.body.destination.rail).toBe('SWIFT');
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const after = await w.c.post('/v1/payments', body);
    expect(after.status).toBe(400);
    expect(after.body.error.fields[0]).toMatchObject({
      path: 'destination.rail',
      rule: 'RAILS_ENUM_ENFORCED',
    });
  });

  it('CRYPTO_RAIL_REMOVED, CHAIN_FIELD_REMOVED, MEMO_REMOVED (2026-03-04): the chain replaces CRYPTO and memo is the reference before', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const body = unfundedPayment(w.bankId, {
      source: { currencyCode: 'USDC', amount: 100, rail: 'CRYPTO', chain: 'BASE' },
      memo: 'old-memo',
    });
    const before = await w.c.post('/v1/payments', body);
    expect(before.status).toBe(201);
    expect(before.body.source.rail).toBe('BASE');
    expect(before.body.reference).toBe('old-memo');
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    const after = await w.c.post('/v1/payments', body);
    expect(after.status).toBe(400);
    expect(after.body.error.fields.map((f: { rule: string }) => f.rule)).toEqual(
      expect.arrayContaining(['CRYPTO_RAIL_REMOVED', 'CHAIN_FIELD_REMOVED', 'MEMO_REMOVED']),
    );
  });

  it('FAILURE_CODES_IN_USE (2026-03-15): UNSPECIFIED before, the spec code from the date', async () => {
    const w = await world('2026-03-14T12:00:00.000Z');
    const a = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    const before = await w.c.post(`/sandbox/payments/${a}/fail`, {
      code: 'INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME',
    });
    expect(before.body.error.code).toBe('UNSPECIFIED');
    await w.c.setNow('2026-03-15T00:00:00.000Z');
    const b = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body.id;
    const after = await w.c.post(`/sandbox/payments/${b}/fail`, {
      code: 'INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME',
    });
    expect(after.body.error.code).toBe('INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME');
  });

  it('ENTITY_AND_RECIPIENT_LOOKUPS_REMOVED (2026-03-04): answered before, 410 ENDPOINT_REMOVED naming the replacement from the date', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    await w.c.post('/v1/payments', unfundedPayment(w.bankId));
    expect((await w.c.get(`/v1/payments/entity/${w.customerId}`)).body.data).toHaveLength(1);
    expect((await w.c.get(`/v1/payment/recipient/${w.bankId}`)).body.data).toHaveLength(1);
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    for (const path of [`/v1/payments/entity/${w.customerId}`, `/v1/payment/recipient/${w.bankId}`]) {
      const res = await w.c.get(path);
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('ENDPOINT_REMOVED');
      expect(res.body.error.message).toContain('/v1/payments/customer/:customerId');
    }
  });
});
