// Activities with a fake ProviderPort: provider errors become ApplicationFailures with the right type,
// retryability and nextRetryDelay; idempotency keys reach the provider untouched.
import { ApplicationFailure } from '@temporalio/common';
import { createActivities, createPaymentActivities, type ProviderPort } from '../../../activities';

class FakeProviderError extends Error {
  constructor(
    readonly type: string,
    readonly retryable: boolean,
    readonly extra: { retryAfterMs?: number; outcomeUnknown?: boolean; status?: number } = {},
  ) {
    super(`${type} happened`);
    Object.assign(this, extra);
  }
}

function port(
  overrides: { create?: () => Promise<never>; get?: () => Promise<never> } = {},
): ProviderPort & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    customers: {
      create: async (body, o) => (keys.push(o.idempotencyKey), { ...body, id: 'cus_1' }) as never,
    },
    accounts: {
      create: async (body, o) => (keys.push(o.idempotencyKey), { ...body, id: 'acc_1' }) as never,
      requirements: async () => [],
    },
    payments: {
      create: overrides.create ?? (async (_b, o) => (keys.push(o.idempotencyKey), { id: 'pay_1' }) as never),
      get: overrides.get ?? (async (id) => ({ id }) as never),
    },
    rates: { get: async () => ({ midMarketRate: 1 }) as never },
    corridors: { list: async () => [] },
  };
}

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApplicationFailure);
    return err as ApplicationFailure;
  }
  throw new Error('no failure');
}

describe('activities', () => {
  it('pass the idempotency key to every creating call', async () => {
    const provider = port();
    const a = createActivities({ provider });
    await a.createPayment({} as never, 'payment:k:create:0');
    await a.createCustomer({ type: 'INDIVIDUAL' } as never, 'customer:k:create');
    await a.createAccount({ type: 'EXTERNAL_BANK_ACCOUNT' } as never, 'account:k:create');
    expect(provider.keys).toEqual(['payment:k:create:0', 'customer:k:create', 'account:k:create']);
  });

  it('a 4xx is non-retryable and keeps its type', async () => {
    const a = createActivities({
      provider: port({
        create: async () => Promise.reject(new FakeProviderError('VALIDATION_ERROR', false, { status: 400 })),
      }),
    });
    const f = await failureOf(a.createPayment({} as never, 'k'));
    expect(f).toMatchObject({ type: 'VALIDATION_ERROR', nonRetryable: true });
  });

  it('a 429 retries after its Retry-After plus jitter, never exactly', async () => {
    const a = createActivities({
      provider: port({
        get: async () =>
          Promise.reject(new FakeProviderError('RATE_LIMITED', true, { retryAfterMs: 7000, status: 429 })),
      }),
    });
    const f = await failureOf(a.getPayment('pay_1'));
    expect(f).toMatchObject({ type: 'RATE_LIMITED', nonRetryable: false });
    // 10–30 % more, at least 250 ms more: every worker that heard the same 429 must not come back at once
    expect(f.nextRetryDelay).toBeGreaterThanOrEqual(7700);
    expect(f.nextRetryDelay).toBeLessThanOrEqual(9100);
  });

  it('an outcome-unknown create is retryable even when flagged otherwise', async () => {
    const a = createActivities({
      provider: port({
        create: async () => Promise.reject(new FakeProviderError('TIMEOUT', false, { outcomeUnknown: true })),
      }),
    });
    expect(await failureOf(a.createPayment({} as never, 'k'))).toMatchObject({
      type: 'TIMEOUT',
      nonRetryable: false,
    });
  });

  it('a retry of a create sends prevalidate: false, so local pre-validation never refuses a committed create', async () => {
    const seen: unknown[] = [];
    const provider = port({
      create: (async (_b: unknown, o: unknown) => (seen.push(o), { id: 'pay_1' })) as never,
    });
    await createPaymentActivities({ provider, attempt: () => 1 }).createPayment({} as never, 'k');
    await createPaymentActivities({ provider, attempt: () => 2 }).createPayment({} as never, 'k');
    expect(seen).toEqual([{ idempotencyKey: 'k' }, { idempotencyKey: 'k', prevalidate: false }]);
  });

  it('a refusal after an attempt that may have reached the service is CREATE_OUTCOME_UNKNOWN, never the refusal', async () => {
    const provider = port({
      create: async () => Promise.reject(new FakeProviderError('ValidationError', false, { status: 400 })),
    });
    const retried = createPaymentActivities({ provider, attempt: () => 3 });
    expect(await failureOf(retried.createPayment({} as never, 'k'))).toMatchObject({
      type: 'CREATE_OUTCOME_UNKNOWN',
      nonRetryable: true,
    });
    // the first attempt's refusal is a refusal
    const first = createPaymentActivities({ provider, attempt: () => 1 });
    expect(await failureOf(first.createPayment({} as never, 'k'))).toMatchObject({ type: 'ValidationError' });
  });

  it('a refusal after the transport itself repeated the POST (retryCount > 0) is CREATE_OUTCOME_UNKNOWN', async () => {
    const refused = Object.assign(new FakeProviderError('ValidationError', false, { status: 400 }), {
      retryCount: 1,
    });
    const provider = port({ create: async () => Promise.reject(refused) });
    const first = createPaymentActivities({ provider, attempt: () => 1 });
    expect(await failureOf(first.createPayment({} as never, 'k'))).toMatchObject({
      type: 'CREATE_OUTCOME_UNKNOWN',
      nonRetryable: true,
    });
  });

  it('a 2xx whose body does not parse is CREATE_OUTCOME_UNKNOWN (the service created it)', async () => {
    const a = createPaymentActivities({
      provider: port({
        create: async () =>
          Promise.reject(new FakeProviderError('ResponseShapeError', false, { status: 201 })),
      }),
      attempt: () => 1,
    });
    expect(await failureOf(a.createPayment({} as never, 'k'))).toMatchObject({
      type: 'CREATE_OUTCOME_UNKNOWN',
      nonRetryable: true,
    });
  });

  it('an untyped error is a retryable PROVIDER_UNKNOWN_ERROR', async () => {
    const a = createActivities({
      provider: port({ get: async () => Promise.reject(new TypeError('boom')) }),
    });
    expect(await failureOf(a.getPayment('x'))).toMatchObject({
      type: 'PROVIDER_UNKNOWN_ERROR',
      nonRetryable: false,
    });
  });

  it('getCustomer without a GET on the client fails NOT_SUPPORTED, non-retryable', async () => {
    const a = createActivities({ provider: port() });
    expect(await failureOf(a.getCustomer('cus_1'))).toMatchObject({
      type: 'NOT_SUPPORTED',
      nonRetryable: true,
    });
  });
});
