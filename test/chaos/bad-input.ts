// Bad input: requests that each break one rule of the contract (src/contract: the POST /payments
// body schema and the dated rules of validate-payment.ts, all in force today), sent through startPayment and
// startTransfer. Each must be refused with a field-level violation before any provider call that moves money.
import type { LocalStack } from '../../src/cli/stack';
import {
  PaymentRequestInvalidError,
  startPayment,
  startTransfer,
  type PaymentRequest,
} from '../../src/client/payments';

export interface BrokenRequest {
  /** what is broken, e.g. "source.rail = CRYPTO" */
  rule: string;
  /** the field the violation must name (prefix match: "source" covers "source.amount") */
  path: string;
  request: Record<string, unknown>;
}

export function validRequest(reference: string): Record<string, unknown> {
  return {
    customerId: 'cus_demo_individual',
    source: {
      currencyCode: 'USDC',
      amount: 25,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    reference,
    paymentReason: 'PERSONAL_TRANSFERS',
  };
}

const MISSING = Symbol('missing');
type Bad = unknown;

/** field path → values that break its rule (MISSING: the field left out). */
const BREAKS: Array<[path: string, values: Bad[]]> = [
  ['', ['not an object', 42, null, []]],
  ['source', [MISSING, null, 'USDC', 42, [], true]],
  ['destination', [MISSING, null, 'acc_demo_brl_bank', 7, []]],
  ['source.currencyCode', [MISSING, '', 'US', 'U', 'TOOLONG', 840, null, {}]],
  ['destination.currencyCode', [MISSING, '', 'B', 'BR', 'BRAZIL', 986, null, []]],
  ['source.amount', [MISSING, 0, -1, -0.01, -1e9, '25', null, true, {}, []]],
  ['source.rail', [MISSING, '', 'CRYPTO', 'WIRE', 'FPS', 'BANANA', 'polygon', 'PIXX', 'SEPA', 5, null]],
  [
    'destination.rail',
    [MISSING, '', 'CRYPTO', 'WIRE', 'FPS', 'TELEPORT', 'pix', 'SEPA_INSTANT', 'RTP', 9, null],
  ],
  ['destination.accountId', [MISSING, '', 12, null, {}]],
  // Removed by the 2026-07-31 change (REMOVED_PAYMENT_REASONS), OTHER, unknown and malformed values.
  [
    'paymentReason',
    [
      MISSING,
      '',
      'OTHER',
      'REMITTANCE',
      'CONSULTING_FEES',
      'INHERITANCE_PAYMENTS',
      'GIFT',
      'personal_transfers',
      'BRIBES',
      3,
      null,
    ],
  ],
  ['source.fromAddress', [17, false, {}]],
  ['source.accountId', ['', 99, false]],
  ['customerId', ['', 5, null]],
  ['reference', [123, {}, true]],
  ['comment', [1, ['a']]],
  ['returnAddress', [2, {}]],
  // Dated removals (spec: rails, memo, chain): in force today. documentReference is not one: a legacy request
  // field with no date, accepted and ignored (docs/spec-gaps.md, Contract).
  ['memo', ['rename me', '']],
  ['source.chain', ['POLYGON', '']],
  ['destination.chain', ['ETHEREUM', '']],
];

function setPath(
  target: Record<string, unknown>,
  dotted: string,
  value: unknown,
): Record<string, unknown> | unknown {
  if (dotted === '') return value; // the whole body
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  const last = parts[parts.length - 1]!;
  if (value === MISSING) delete node[last];
  else node[last] = value;
  return target;
}

/** Every broken request, one rule each (≥ 100). */
export function brokenRequests(referencePrefix: string): BrokenRequest[] {
  const out: BrokenRequest[] = [];
  for (const [field, values] of BREAKS) {
    for (const value of values) {
      const reference = `${referencePrefix}-${out.length}`;
      const request = setPath(structuredClone(validRequest(reference)), field, value) as Record<
        string,
        unknown
      >;
      const shown = value === MISSING ? 'missing' : (JSON.stringify(value) ?? String(value));
      out.push({ rule: `${field || 'body'} = ${shown}`, path: field, request });
    }
  }
  return out;
}

export interface BadInputResult {
  requests: number;
  viaTransfer: number;
  refused: number;
  /** refused, but no violation names the broken field */
  wrongField: string[];
  /** not refused (created or failed otherwise) */
  notRefused: string[];
  /** provider payments the sandbox holds for these requests: must be 0 */
  sandboxPayments: number;
}

/**
 * Sends every broken request on a stack whose sandbox serves nothing else; about every 10th goes through
 * startTransfer (existing customer and account).
 */
export async function runBadInput(stack: LocalStack, prefix: string): Promise<BadInputResult> {
  const broken = brokenRequests(prefix);
  const result: BadInputResult = {
    requests: broken.length,
    viaTransfer: 0,
    refused: 0,
    wrongField: [],
    notRefused: [],
    sandboxPayments: 0,
  };
  await Promise.all(
    broken.map(async (b, i) => {
      const key = `${prefix}-${i}`;
      try {
        let violations: Array<{ path: string }> | null = null;
        // Not for destination or customerId: the transfer fills those from its own steps (repairing them).
        if (i % 10 === 0 && !b.path.startsWith('destination') && b.path !== 'customerId') {
          result.viaTransfer++;
          const handle = await startTransfer(
            stack.client,
            {
              transferKey: key,
              customer: { customerId: 'cus_demo_individual' },
              account: { accountId: 'acc_demo_brl_bank' },
              payment: { paymentKey: key, request: b.request },
            },
            { taskQueue: stack.taskQueue },
          );
          const done = (await handle.result()) as {
            payment?: { outcome?: string; violations?: Array<{ path: string }> } | null;
          };
          if (done.payment?.outcome === 'REJECTED') violations = done.payment.violations ?? [];
        } else {
          try {
            // broken on purpose: the request is checked at run time, as one coming from JSON is
            const started = await startPayment(
              stack.client,
              { paymentKey: key, request: b.request as PaymentRequest },
              { taskQueue: stack.taskQueue },
            );
            if (started.created.outcome === 'REJECTED') violations = started.created.violations;
          } catch (error) {
            if (!(error instanceof PaymentRequestInvalidError)) throw error;
            // refused before a start; paths name the startPayment input's fields (request.source.rail)
            violations = error.violations.map((v) => ({ path: v.path.replace(/^request\.?/, '') }));
          }
        }
        if (!violations) {
          result.notRefused.push(b.rule);
          return;
        }
        result.refused++;
        const names = (v: { path: string }) =>
          b.path === '' ||
          v.path === b.path ||
          v.path.startsWith(`${b.path}.`) ||
          b.path.startsWith(`${v.path}.`);
        if (!violations.some(names))
          result.wrongField.push(`${b.rule}: ${violations.map((v) => v.path).join(', ') || 'no violations'}`);
      } catch (error) {
        // A refusal by the client itself (schema of the input) is a refusal too, before any provider call.
        const message = String(error);
        if (/violation|invalid|ZodError|expected/i.test(message)) result.refused++;
        else result.notRefused.push(`${b.rule}: ${message.slice(0, 200)}`);
      }
    }),
  );
  // The scenario's sandbox serves nothing else: any payment in it came from a broken request.
  for await (const _ of stack.provider.payments.listAll()) result.sandboxPayments++;
  return result;
}
