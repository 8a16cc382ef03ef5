// Pure helpers: account requirement check, quote amounts, webhook event parsing, environments, Retry-After, paging.
import { normalizePayment, toTransitionalPayment, type AccountRequirement } from '../../src/contract';
import {
  checkAccountAgainstRequirements,
  compareQuoteAmounts,
  ENVIRONMENTS,
  expectedQuoteAmounts,
  iteratePages,
  type Page,
  parseRetryAfter,
  parseWebhookEvent,
  resolveApiBase,
  ResponseShapeError,
} from '../../src/provider';
import { currentPaymentJson } from './support/fixtures';

const req = (over: Partial<AccountRequirement>): AccountRequirement => ({
  variableName: 'bank.accountNumber',
  rails: [],
  accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
  regex: '',
  example: '',
  enum: [],
  ...over,
});

describe('checkAccountAgainstRequirements', () => {
  const requirements: AccountRequirement[] = [
    req({ variableName: 'bank.accountNumber', regex: '^\\d{4,17}$', example: '123456789' }),
    req({
      variableName: 'bank.routingNumber',
      rails: ['ACH', 'ACH_SAME_DAY'],
      regex: '^\\d{9}$',
      example: '021000021',
    }),
    req({ variableName: 'bank.pixCode', rails: ['PIX'] }),
    req({ variableName: 'accountHolder.businessName', accountHolderTypes: ['BUSINESS'] }),
    req({ variableName: 'bank.accountType', enum: ['CHECKING', 'SAVINGS'] }),
  ];

  it('accepts an account that meets every applicable item', () => {
    const account = {
      rails: ['ACH'],
      bank: { accountNumber: '12345678', routingNumber: '021000021', accountType: 'CHECKING' },
      accountHolder: { type: 'INDIVIDUAL', address: { countryCode: 'US' } },
    };
    expect(checkAccountAgainstRequirements(account, requirements)).toEqual([]);
  });

  it('reports every mismatch at once: missing, regex, enum, holder type, rails', () => {
    const account = {
      rails: ['ACH'],
      bank: { accountNumber: '12-34', accountType: 'BROKERAGE' },
      accountHolder: { type: 'BUSINESS', address: { countryCode: 'US' } },
    };
    const found = checkAccountAgainstRequirements(account, requirements);
    expect(found.map((m) => [m.path, m.rule])).toEqual([
      ['bank.accountNumber', 'regex'],
      ['bank.routingNumber', 'required'],
      ['accountHolder.businessName', 'required'],
      ['bank.accountType', 'enum'],
    ]);
    // the account's value is never echoed (personal data); the example is
    expect(JSON.stringify(found)).not.toContain('12-34');
    expect(found[0]!.message).toContain('123456789');
  });

  it('picks items by rail: the rail option wins over the account rails, and a rail not on the account is reported', () => {
    const account = {
      rails: ['TED'],
      bank: { accountNumber: '1234', accountType: 'SAVINGS' },
      accountHolder: { type: 'INDIVIDUAL' },
    };
    expect(checkAccountAgainstRequirements(account, requirements)).toEqual([]);
    const onPix = checkAccountAgainstRequirements(account, requirements, { rail: 'PIX' });
    expect(onPix.map((m) => [m.path, m.rule])).toEqual([
      ['rails', 'rails'],
      ['bank.pixCode', 'required'],
    ]);
  });

  it('an account without rails is checked against every rail (defaults)', () => {
    const account = {
      bank: { accountNumber: '1234', accountType: 'SAVINGS' },
      accountHolder: { type: 'INDIVIDUAL' },
    };
    expect(checkAccountAgainstRequirements(account, requirements).map((m) => m.path)).toEqual([
      'bank.routingNumber',
      'bank.pixCode',
    ]);
  });

  it('without a holder type, says which holder-specific items it could not check', () => {
    const account = { rails: ['SWIFT'], bank: { accountNumber: '1234', accountType: 'SAVINGS' } };
    const found = checkAccountAgainstRequirements(account, requirements);
    expect(found).toEqual([
      expect.objectContaining({ path: 'accountHolder.type', rule: 'accountHolderType' }),
    ]);
    expect(found[0]!.message).toContain('accountHolder.businessName');
    expect(
      checkAccountAgainstRequirements(account, requirements, { accountHolderType: 'BUSINESS' }).map(
        (m) => m.path,
      ),
    ).toEqual(['accountHolder.businessName']);
  });

  it('refuses a non-string value and reports an invalid service pattern instead of throwing', () => {
    const items = [req({ variableName: 'bank.iban', regex: '^(GB' }), req({ variableName: 'bank.bankCode' })];
    const found = checkAccountAgainstRequirements(
      { bank: { iban: 'GB29NWBK60161331926819', bankCode: { nested: 1 } } },
      items,
    );
    expect(found.map((m) => [m.path, m.rule])).toEqual([
      ['bank.iban', 'invalidRequirement'],
      ['bank.bankCode', 'type'],
    ]);
  });
});

describe('expectedQuoteAmounts', () => {
  const rate = {
    midMarketRate: 5,
    serviceFee: { fixed: 1, variable: 0.01 },
    developerFee: { fixed: 0.5, variable: 0.02 },
  };

  it('computes D from S with the spec formula, and S from D as its inverse', () => {
    const fromSource = expectedQuoteAmounts(rate, { sourceAmount: 101 });
    // D = (((101 - 1) * 0.99) - 0.5) * 5 * 0.98 = 482.65
    expect(fromSource.destinationAmount).toBeCloseTo(482.65, 9);
    expect(fromSource.sourceAmount).toBe(101);
    const back = expectedQuoteAmounts(rate, { destinationAmount: fromSource.destinationAmount });
    expect(back.sourceAmount).toBeCloseTo(101, 9);
    expect(back.totalFeeInSourceCurrency).toBeCloseTo(101 - 482.65 / 5, 9);
  });

  it('rounds to each currency when currencies are given', () => {
    const amounts = expectedQuoteAmounts(
      { ...rate, midMarketRate: 150.123 },
      { sourceAmount: 100 },
      { sourceCurrency: 'USD', destinationCurrency: 'JPY' },
    );
    expect(Number.isInteger(amounts.destinationAmount)).toBe(true);
  });

  it('compareQuoteAmounts lists fields beyond the tolerance', () => {
    const expected = expectedQuoteAmounts(
      rate,
      { sourceAmount: 101 },
      { sourceCurrency: 'USD', destinationCurrency: 'BRL' },
    );
    expect(
      compareQuoteAmounts(expected, {
        sourceAmount: 101,
        destinationAmount: expected.destinationAmount + 0.01,
      }),
    ).toEqual([]);
    expect(compareQuoteAmounts(expected, { destinationAmount: expected.destinationAmount + 0.5 })).toEqual([
      {
        field: 'destinationAmount',
        expected: expected.destinationAmount,
        actual: expected.destinationAmount + 0.5,
      },
    ]);
  });
});

describe('parseWebhookEvent', () => {
  it('normalises a transitional payment inside a payment event to the current shape', () => {
    const current = normalizePayment(currentPaymentJson());
    const transitional = toTransitionalPayment(current);
    expect(transitional.entityId).toBe(current.customerId);
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'payment.updated',
      createdAt: '2026-03-01T00:00:00.000Z',
      data: transitional,
    });
    const event = parseWebhookEvent(body);
    expect(event.kind).toBe('payment');
    if (event.kind !== 'payment') throw new Error('unreachable');
    expect(event.data).toEqual(current);
    expect(event.data).not.toHaveProperty('entityId');
    expect(parseWebhookEvent(Buffer.from(body)).id).toBe('evt_1');
  });

  it('keeps unknown event names raw, and names the bad path of a malformed event', () => {
    const unknown = parseWebhookEvent({
      id: 'evt_2',
      type: 'team.renamed',
      createdAt: '2026-03-01T00:00:00.000Z',
      data: { x: 1 },
    });
    expect(unknown.kind).toBe('unknown');
    let error: unknown;
    try {
      parseWebhookEvent({
        id: 'evt_3',
        type: 'payment.created',
        createdAt: '2026-03-01T00:00:00.000Z',
        data: currentPaymentJson({ status: 42 }),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).fields.map((f) => f.path)).toContain('status');
    expect(() => parseWebhookEvent('{not json')).toThrow(ResponseShapeError);
  });
});

describe('environments', () => {
  it('resolves names to placeholder .invalid hosts with /v1, and URLs as given', () => {
    expect(resolveApiBase({ environment: 'sandbox' })).toBe(`${ENVIRONMENTS.sandbox}/v1`);
    expect(resolveApiBase({ environment: 'production' })).toBe(`${ENVIRONMENTS.production}/v1`);
    expect(ENVIRONMENTS.production).toMatch(/\.example\.invalid$/);
    expect(resolveApiBase({ baseUrl: 'http://127.0.0.1:4010/' })).toBe('http://127.0.0.1:4010/v1');
    expect(resolveApiBase({ baseUrl: 'http://127.0.0.1:4010/v1' })).toBe('http://127.0.0.1:4010/v1');
  });
  it('refuses both, neither, an unknown name, a non-http URL and credentials in the URL', () => {
    expect(() => resolveApiBase({})).toThrow(/required/);
    expect(() => resolveApiBase({ baseUrl: 'http://x', environment: 'sandbox' })).toThrow(/not both/);
    expect(() => resolveApiBase({ environment: 'staging' as never })).toThrow(/unknown environment/);
    expect(() => resolveApiBase({ baseUrl: 'ftp://x' })).toThrow(/http/);
    expect(() => resolveApiBase({ baseUrl: 'https://user:pw@x' })).toThrow(/credentials/);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-20T12:00:00.000Z');
  it('reads delta-seconds and HTTP-dates, never negative', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(['0'], now)).toBe(0);
    expect(parseRetryAfter('Fri, 20 Mar 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Fri, 20 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('iteratePages', () => {
  it('follows nextCursor until null and stops on a repeated cursor', async () => {
    const pages: Record<string, Page<number>> = {
      start: { data: [1, 2], nextCursor: 'c2', limit: 2 },
      c2: { data: [3], nextCursor: null, limit: 2 },
    };
    const seen: Array<string | undefined> = [];
    const got: number[][] = [];
    for await (const page of iteratePages(async (q) => (seen.push(q.cursor), pages[q.cursor ?? 'start']!)))
      got.push(page.data);
    expect(got).toEqual([[1, 2], [3]]);
    expect(seen).toEqual([undefined, 'c2']);
    const loop = async () => {
      for await (const _ of iteratePages(async () => ({ data: [1], nextCursor: 'same', limit: 1 }))) void _;
    };
    await expect(loop()).rejects.toThrow(ResponseShapeError);
  });
});
