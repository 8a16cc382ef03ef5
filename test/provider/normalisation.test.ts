// Old shapes on the wire reach the caller in the current shape only (spec: Payment transitional fields,
// legacy Corridor / Rate / Account requirement shapes). A fake server plays the old service.
import { normalizePayment, toTransitionalPayment } from '../../src/contract';
import { createProviderClient, ResponseShapeError } from '../../src/provider';
import { currentPaymentJson } from './support/fixtures';
import { type FakeServer, sendJson, startFakeServer } from './support/fake-server';

let server: FakeServer;
const client = () => createProviderClient({ baseUrl: server.url, apiKey: 'k' });

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await server.close();
});

const legacyRate = {
  midMarketRate: 5,
  invertedMidMarketRate: 0.2,
  serviceFees: {
    description: 'by rail',
    LOCAL: { fixed: 1, variable: 0.01 },
    WIRE: { fixed: 25, variable: 0.01 },
    CRYPTO: { fixed: 0, variable: 0.005 },
  },
  serviceRates: { description: 'deprecated', LOCAL: 0.01, WIRE: 0.01, CRYPTO: 0.005 },
  developerFees: { description: 'dev', fixed: 0, variable: 0 },
  calculatedAmounts: {
    LOCAL: { sourceAmount: 100, destinationAmount: 490, totalFeeInSourceCurrency: 2 },
    WIRE: { sourceAmount: 100, destinationAmount: 371, totalFeeInSourceCurrency: 25.8 },
    CRYPTO: { sourceAmount: 100, destinationAmount: 497.5, totalFeeInSourceCurrency: 0.5 },
  },
  quoteId: 'q_legacy',
};

describe('normalisation of old shapes', () => {
  it('transitional payments in GET, list and create answers come back in the current shape', async () => {
    const current = normalizePayment(
      currentPaymentJson({
        source: {
          amount: 100,
          currencyCode: 'USDC',
          accountId: null,
          rail: 'POLYGON',
          fromAddress: '0xa',
          transactionHash: null,
          fromAccountNumber: null,
        },
      }),
    );
    const transitional = toTransitionalPayment(current);
    server.handle((req, res) => {
      if (req.url.startsWith('/v1/payments?'))
        sendJson(res, 200, { data: [transitional], pagination: { limit: 20, nextCursor: null } });
      else sendJson(res, req.method === 'POST' ? 201 : 200, transitional);
    });
    expect(await client().payments.get(current.id)).toEqual(current);
    expect((await client().payments.list({ limit: 20 })).data).toEqual([current]);
    const created = await client().payments.create(
      {
        source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xa' },
        destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_1' },
        paymentReason: 'PURCHASE_OF_SERVICES',
      },
      { idempotencyKey: 'k-transitional-1', prevalidate: false },
    );
    expect(created).toEqual(current);
    expect(created).not.toHaveProperty('entityId');
    expect(created.source).not.toHaveProperty('chain');
  });

  it('a legacy corridor is expanded to current corridors, one per fee key', async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, {
        data: [
          {
            source: { currencyCode: 'USDC', chain: 'POLYGON' },
            destination: { currencyCode: 'EUR', chain: null, countryCode: 'DE' },
            fees: {
              LOCAL: { fixedFeeInUSD: 1, variableFeeInSourceCurrency: 0.005 },
              WIRE: { fixedFeeInUSD: 25, variableFeeInSourceCurrency: 0.005 },
            },
          },
          {
            source: { currencyCodes: ['USD'], rails: ['ACH'] },
            destination: { currencyCodes: ['BRL'], rails: ['PIX'], countryCode: 'BR' },
            fees: { fixed: 0.5, variable: 0.01 },
          },
        ],
      }),
    );
    const corridors = await client().corridors.list();
    expect(corridors.map((c) => [c.source.rails[0], c.destination.rails[0], c.fees.fixed])).toEqual([
      ['POLYGON', 'LOCAL', 1],
      ['POLYGON', 'SWIFT', 25],
      ['ACH', 'PIX', 0.5],
    ]);
  });

  it('a legacy rate is read with the fees of the rail asked for', async () => {
    server.handle((_req, res) => sendJson(res, 200, legacyRate));
    const query = { sourceCurrency: 'USD', destinationCurrency: 'BRL', sourceRail: 'ACH', sourceAmount: 100 };
    const swift = await client().rates.get({ ...query, destinationRail: 'SWIFT' });
    expect(swift.serviceFee).toEqual({ fixed: 25, variable: 0.01 });
    expect(swift.calculatedAmount.destinationAmount).toBe(371);
    const chain = await client().rates.get({ ...query, destinationRail: 'POLYGON' });
    expect(chain.serviceFee).toEqual({ fixed: 0, variable: 0.005 });
    const local = await client().rates.get({ ...query, destinationRail: 'PIX' });
    expect(local.calculatedAmount).toEqual({
      description: 'by rail',
      sourceAmount: 100,
      destinationAmount: 490,
      totalFeeInSourceCurrency: 2,
    });
    expect(server.requests.at(-1)!.url).toBe(
      '/v1/payments/rate?sourceCurrencyCode=USD&destinationCurrencyCode=BRL&sourceRail=ACH&destinationRail=PIX&sourceAmount=100',
    );
  });

  it('legacy account requirements become current items with holder types', async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, {
        INDIVIDUAL: [
          { variableName: 'bank.accountNumber', regex: '^\\d+$', example: '123', enum: [] },
          { variableName: 'accountHolder.firstName', regex: '.+', example: 'Jane', enum: [] },
        ],
        BUSINESS: [{ variableName: 'bank.accountNumber', regex: '^\\d+$', example: '123', enum: [] }],
      }),
    );
    const items = await client().accounts.requirements({ bankCountryCode: 'BR', currencyCode: 'BRL' });
    expect(items).toEqual([
      {
        variableName: 'bank.accountNumber',
        regex: '^\\d+$',
        example: '123',
        enum: [],
        rails: [],
        accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
      },
      {
        variableName: 'accountHolder.firstName',
        regex: '.+',
        example: 'Jane',
        enum: [],
        rails: [],
        accountHolderTypes: ['INDIVIDUAL'],
      },
    ]);
    expect(server.requests.at(-1)!.url).toBe('/v1/accounts/requirements?bankCountryCode=BR&currencyCode=BRL');
  });

  it('a shape that is neither current nor legacy is a ResponseShapeError naming the paths', async () => {
    server.handle((_req, res) => sendJson(res, 200, { midMarketRate: 5 }));
    const error = await client()
      .rates.get({
        sourceCurrency: 'USD',
        destinationCurrency: 'BRL',
        sourceRail: 'ACH',
        destinationRail: 'PIX',
        sourceAmount: 1,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(['serviceFee', 'quoteId']),
    );
  });
});
