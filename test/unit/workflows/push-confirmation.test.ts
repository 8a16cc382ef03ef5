// When the service's own answer (GET) bears out a pushed final status, and when it is a mismatch
// (workflows/provider-payment/push-confirmation.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Payment } from '../../../src/contract';
import {
  claimsFinalStatus,
  CONFIRM_RETRY_MS,
  confirms,
  PUSH_MISMATCH_METRIC,
} from '../../../workflows/provider-payment/push-confirmation';
import { currentPayment } from '../contract/fixtures';

const T0 = '2026-11-02T10:00:00.000Z';
const T1 = '2026-11-02T11:00:00.000Z';
const T2 = '2026-11-03T10:00:00.000Z';

function payment(status: string, stamps: Partial<Payment['lifecycle']> = {}): Payment {
  const p = currentPayment();
  return {
    ...p,
    status,
    lifecycle: {
      createdAt: T0,
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
      ...stamps,
    },
  } as Payment;
}

describe('claimsFinalStatus', () => {
  it.each(['COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED', 'CANCELLED'])(
    '%s is final: held for a GET',
    (status) => {
      expect(claimsFinalStatus(payment(status))).toBe(true);
    },
  );
  it.each(['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'ON_HOLD'])(
    '%s is a hint: taken as it comes',
    (status) => {
      expect(claimsFinalStatus(payment(status))).toBe(false);
    },
  );
});

describe('confirms(read, pushed)', () => {
  const completed = payment('COMPLETED', { sentAt: T1, completedAt: T1 });

  it('the same status bears the push out', () => {
    expect(confirms(payment('COMPLETED', { sentAt: T1, completedAt: T1 }), completed)).toBe(true);
  });
  it('a refund after the pushed COMPLETED (row 4): the push was only late', () => {
    expect(confirms(payment('REFUNDED', { sentAt: T1, completedAt: T1, refundedAt: T2 }), completed)).toBe(
      true,
    );
  });
  it('a forged COMPLETED of a payment still AWAITING_FUNDS is a mismatch', () => {
    expect(confirms(payment('AWAITING_FUNDS'), completed)).toBe(false);
  });
  it('a forged COMPLETED without timestamps of a payment SENT is a mismatch', () => {
    expect(confirms(payment('SENT', { sentAt: T1 }), payment('COMPLETED'))).toBe(false);
  });
  it('a pushed COMPLETED the service says FAILED is a mismatch (the GET is what is kept)', () => {
    expect(confirms(payment('FAILED', { sentAt: T1 }), completed)).toBe(false);
    expect(confirms(payment('FAILED'), payment('COMPLETED'))).toBe(false);
  });
  it('a final read that lacks a timestamp the push had is a mismatch', () => {
    expect(confirms(payment('REFUNDED', { refundedAt: T2 }), completed)).toBe(false);
  });
});

describe('what operators are told', () => {
  const docs = (file: string) => readFileSync(path.resolve(__dirname, '../../..', file), 'utf8');
  it('the mismatch metric is the one docs/architecture.md tells operators to watch', () => {
    expect(docs('docs/architecture.md').match(/`(xborder_provider_push_\w+_total)`/)?.[1]).toBe(
      PUSH_MISMATCH_METRIC,
    );
  });
  it('a confirming read that failed for good is tried again as often as docs/spec-gaps.md says', () => {
    const minutes = Number(docs('docs/spec-gaps.md').match(/a new attempt every (\d+) minutes/)?.[1]);
    expect(CONFIRM_RETRY_MS).toBe(minutes * 60_000);
  });
});
