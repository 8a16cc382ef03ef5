import type { z } from 'zod';
import type { Violation } from '../contract';
import type { PaymentCreated, PaymentState } from '../../workflows/payment/api';

/** One line per problem, `field: rule`, for people (never zod's raw JSON). */
export function formatViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => {
      const field = v.path || '(request)';
      // The contract's messages often start with their field already ("source.rail is required: add it").
      const text = v.message.startsWith(field) ? v.message : `${field}: ${v.message}`;
      return `  ${text}${v.rule ? ` [${v.rule}]` : ''}`;
    })
    .join('\n');
}

export function formatZodIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): string {
  return issues
    .map((i) => {
      const field = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      const keys = i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : '';
      return `  ${field || '(request)'}: ${i.message}${keys}`;
    })
    .join('\n');
}

/**
 * The quote as a user must see it before funding: the rate, what the recipient gets and the fee with its currency
 * (the fee is in the source currency: spec, Payment, fee). Older runs' answers lack the amounts: left out then.
 */
export function quoteLine(quote: PaymentState['quote'], created: PaymentCreated | null): string {
  const parts = [`quote: rate ${quote?.exchangeRate ?? '?'}, valid until ${quote?.expiresAt ?? '?'}`];
  if (created?.outcome === 'CREATED') {
    if (created.destinationAmount != null)
      parts.push(
        `the recipient gets ${created.destinationAmount} ${created.destinationCurrencyCode ?? ''}`.trimEnd(),
      );
    parts.push(`fee ${created.fee}${created.feeCurrencyCode ? ` ${created.feeCurrencyCode}` : ''}`);
  }
  return parts.join('; ');
}
