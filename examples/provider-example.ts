// Runnable example of the provider client against a local sandbox:  npx tsx examples/provider-example.ts
// It starts an embedded sandbox on a free port, then uses only the client (plus two sandbox control calls
// that stand in for the real world: a compliance officer approving the customer, and a fault).
import { startSandbox, webhookHeaders } from '../src/sandbox';
import {
  checkAccountAgainstRequirements,
  compareQuoteAmounts,
  createProviderClient,
  expectedQuoteAmounts,
  isProviderError,
  parseWebhookEvent,
  type ProviderLogger,
  verifyWebhook,
} from '../src/provider';

const logger: ProviderLogger = {
  info: (message, meta) =>
    console.log(
      '  log',
      message,
      JSON.stringify({
        status: meta.status,
        durationMs: meta.durationMs,
        idempotencyKey: meta.idempotencyKey,
      }),
    ),
  warn: (message, meta) => console.log('  log', message, JSON.stringify({ errorType: meta.errorType })),
  error: (message, meta) => console.log('  log', message, JSON.stringify({ errorType: meta.errorType })),
};

async function controlCall(
  sandbox: { url: string; controlHeaders: Record<string, string> },
  path: string,
  body: unknown,
): Promise<void> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandbox.controlHeaders },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    asOf: '2026-08-04T12:00:00Z',
    rateLimit: false,
    log: null,
  });
  try {
    const provider = createProviderClient({
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      logger,
      asOf: () => sandbox.clock.now(), // check the dated rules by the sandbox's date
    });
    const run = 'example-run-1'; // idempotency keys come from a business key and a step, never from a clock

    console.log('1. customer, approved by the sandbox reviewer');
    const customer = await provider.customers.create(
      {
        type: 'INDIVIDUAL',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.org',
        phone: '+12125550100',
        birthDate: '1990-05-01',
        accountPurpose: 'paying suppliers abroad',
        address: {
          line1: '1 Main St',
          city: 'New York',
          postalCode: '10001',
          stateRegionOrProvince: 'NY',
          countryCode: 'US',
        },
      },
      { idempotencyKey: `${run}:customer` },
    );
    await controlCall(sandbox, `/sandbox/customers/${customer.id}/review`, { outcome: 'APPROVED' });

    console.log('2. account, checked against GET /accounts/requirements first');
    const accountBody = {
      type: 'EXTERNAL_BANK_ACCOUNT' as const,
      customerId: customer.id,
      currencyCode: 'USD',
      rails: ['ACH'],
      bank: { name: 'Test Bank', countryCode: 'US', accountNumber: '12345678', routingNumber: '021000021' },
      accountHolder: {
        type: 'INDIVIDUAL' as const,
        firstName: 'Ada',
        lastName: 'Lovelace',
        address: {
          line1: '1 Main St',
          city: 'New York',
          postalCode: '10001',
          stateRegionOrProvince: 'NY',
          countryCode: 'US',
        },
      },
    };
    const requirements = await provider.accounts.requirements({ bankCountryCode: 'US', currencyCode: 'USD' });
    console.log('   mismatches:', checkAccountAgainstRequirements(accountBody, requirements));
    const account = await provider.accounts.create(accountBody, { idempotencyKey: `${run}:account` });

    console.log('3. rate, and the amounts expected from it');
    const rate = await provider.rates.get({
      sourceCurrency: 'USDC',
      sourceRail: 'POLYGON',
      destinationCurrency: 'USD',
      destinationRail: 'ACH',
      sourceAmount: 250,
    });
    const expected = expectedQuoteAmounts(
      rate,
      { sourceAmount: 250 },
      { sourceCurrency: 'USDC', destinationCurrency: 'USD' },
    );
    console.log('   expected', expected, 'differences', compareQuoteAmounts(expected, rate.calculatedAmount));

    console.log(
      '4. payment; the service fails after committing, and the retry with the same key recovers it',
    );
    await controlCall(sandbox, '/sandbox/faults', {
      route: 'POST /v1/payments',
      status: 500,
      afterCommit: true,
      count: 1,
    });
    const body = {
      source: {
        currencyCode: 'USDC',
        amount: 250,
        rail: 'POLYGON',
        fromAddress: '0x1111111111111111111111111111111111111111',
      },
      destination: { currencyCode: 'USD', rail: 'ACH', accountId: account.id },
      paymentReason: 'PURCHASE_OF_SERVICES',
      reference: 'inv-42',
    };
    let payment;
    try {
      payment = await provider.payments.create(body, { idempotencyKey: `${run}:payment:create:1` });
    } catch (err) {
      if (!isProviderError(err) || !err.outcomeUnknown) throw err;
      console.log(
        `   ${err.type} (retryable ${err.retryable}, outcomeUnknown ${err.outcomeUnknown}): retrying with the same key`,
      );
      payment = await provider.payments.create(body, { idempotencyKey: `${run}:payment:create:1` });
    }
    console.log('   payment', payment.id, payment.status, payment.quote);

    console.log('5. local pre-validation refuses a body with every violation, before sending');
    try {
      await provider.payments.create(
        { ...body, paymentReason: 'OTHER', destination: { ...body.destination, rail: 'WIRE' } },
        { idempotencyKey: `${run}:payment:bad` },
      );
    } catch (err) {
      if (isProviderError(err))
        console.log(`   ${err.type}:`, err.fields.map((f) => `${f.path} (${f.rule})`).join(', '));
    }

    console.log('6. every payment of the customer, across pages');
    for await (const p of provider.payments.listByCustomerAll(customer.id, { limit: 1 }))
      console.log('  ', p.id, p.status, p.destination.amount);

    console.log('7. a payment event signed with the sandbox signer, verified and parsed');
    const event = sandbox.state.recentEvents.filter((e) => e.type.startsWith('payment.')).at(-1);
    if (event) {
      const rawBody = JSON.stringify(event);
      const headers = webhookHeaders(sandbox.webhookSecret, event.id, Math.floor(Date.now() / 1000), rawBody);
      const verified = verifyWebhook(headers, rawBody, sandbox.webhookSecret);
      const parsed = parseWebhookEvent(rawBody);
      console.log('   verified', verified.id, parsed.type, parsed.kind);
    }
  } finally {
    await sandbox.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
