// The provider client parses the legacy account.deposit event (spec: Events 3) and the
// account event of an account registered with paymentAccountHolder only (Events 4).
import { normalizeAccount } from '../../src/contract';
import { parseWebhookEvent } from '../../src/provider';
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  usdBank,
  usdVirtual,
} from '../sandbox/harness';

let sb: Running;
beforeAll(async () => {
  sb = await sandbox({ asOf: '2025-09-07T12:00:00.000Z' });
});
afterAll(async () => {
  await sb.close();
});

describe('parseWebhookEvent: legacy events of the sandbox', () => {
  it('account.deposit (before 2025-09-08) parses as kind deposit, not as an account', async () => {
    const customerId = await approvedCustomer(sb);
    const virtualId = await account(sb, usdVirtual(customerId));
    const res = await client(sb).post(`/sandbox/accounts/${virtualId}/deposit`, { amount: 25 });
    const event = sb.state.recentEvents.find(
      (e) => e.type === 'account.deposit' && e.data.id === res.body.deposit.id,
    )!;
    const parsed = parseWebhookEvent(JSON.stringify(event));
    expect(parsed.kind).toBe('deposit');
    if (parsed.kind !== 'deposit') throw new Error('unreachable');
    expect(parsed.data).toMatchObject({
      id: res.body.deposit.id,
      accountId: virtualId,
      amount: 25,
      currencyCode: 'USD',
    });
  });

  it('a malformed account.deposit names the bad path', () => {
    expect(() =>
      parseWebhookEvent({
        id: 'evt_1',
        type: 'account.deposit',
        createdAt: '2025-09-01T00:00:00.000Z',
        data: { id: 'dep_1', amount: 'ten' },
      }),
    ).toThrow(/amount|accountId/);
  });

  it('account.created of an account registered with paymentAccountHolder only carries accountHolder', async () => {
    const customerId = await approvedCustomer(sb);
    const body: Record<string, unknown> = {
      ...usdBank(customerId),
      paymentAccountHolder: usdBank(customerId).accountHolder,
    };
    delete body.accountHolder;
    const id = await account(sb, body);
    const event = sb.state.recentEvents.find((e) => e.type === 'account.created' && e.data.id === id)!;
    const parsed = parseWebhookEvent(event);
    expect(parsed.kind).toBe('account');
    if (parsed.kind !== 'account') throw new Error('unreachable');
    expect(parsed.data.accountHolder).toMatchObject({ type: 'INDIVIDUAL', address: { countryCode: 'US' } });
  });
});

describe('normalizeAccount: a service payload with paymentAccountHolder only (before 2026-03-04)', () => {
  const legacy = {
    id: 'acc_1',
    type: 'EXTERNAL_BANK_ACCOUNT',
    createdAt: '2026-02-01T00:00:00.000Z',
    paymentAccountHolder: { name: 'Ana Lima', address: { countryCode: 'BR' } },
  };

  it('fills accountHolder from it (webhook and GET parsing); the old object stays as an extra field', () => {
    expect(normalizeAccount(legacy)).toMatchObject({
      accountHolder: { name: 'Ana Lima', address: { countryCode: 'BR' } },
      paymentAccountHolder: legacy.paymentAccountHolder,
    });
    const event = parseWebhookEvent({
      id: 'evt_9',
      type: 'account.created',
      createdAt: '2026-02-01T00:00:00.000Z',
      data: legacy,
    });
    expect(event.kind === 'account' && event.data.accountHolder?.name).toBe('Ana Lima');
  });

  it('an accountHolder sent wins over the old copy', () => {
    const both = { ...legacy, accountHolder: { name: 'New', address: { countryCode: 'US' } } };
    expect(normalizeAccount(both).accountHolder?.name).toBe('New');
  });
});
