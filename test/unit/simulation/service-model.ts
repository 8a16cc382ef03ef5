// The payments service as the simulation sees it: one payment's TRUE record over time, moved only by the
// transitions of the spec's state machine (spec: States and transitions, rows 1, 2 and 4; an ON_HOLD the spec does
// not name, rule 3; FAILED and REFUNDED are our gap decisions, docs/spec-gaps.md). Every change is kept, so the
// invariants can ask "did the service ever have this state?". Row 5 (legacy late funding before 2026-03-30) is not generated: the payment is made in 2026-11.
import type { Payment } from '../../../src/contract';
import { snapshot } from '../workflows/decisions/fixtures';

export const START_MS = Date.parse('2026-11-20T12:00:00.000Z');

/** A move of the service's record. `late*` moves happen after an outcome (row 4, returns), at any delay. */
export type ServiceMove =
  | 'fund'
  | 'expire'
  | 'process'
  | 'hold'
  | 'release'
  | 'send'
  | 'complete'
  | 'fail'
  | 'lateFundsRefunded'
  | 'refund'
  | 'bankReturn';
export const SERVICE_MOVES: readonly ServiceMove[] = [
  'fund',
  'expire',
  'process',
  'hold',
  'release',
  'send',
  'complete',
  'fail',
  'lateFundsRefunded',
  'refund',
  'bankReturn',
];

function at(ms: number): string {
  return new Date(ms).toISOString();
}

export class ServiceModel {
  /** every record the service ever had, oldest first; the last is the truth now */
  readonly history: Payment[];

  /** `created`: the record POST /payments answered (the time-skipping tier seeds the model with the fake's payment). */
  constructor(
    readonly id = 'pay_sim',
    created?: Payment,
  ) {
    this.history = [created ?? snapshot('AWAITING_FUNDS', { createdAt: at(START_MS) }, { id })];
  }

  get record(): Payment {
    return this.history[this.history.length - 1];
  }

  /** The moves the spec allows from the current record. */
  legalMoves(): ServiceMove[] {
    return SERVICE_MOVES.filter((move) => this.apply(move, 0, true));
  }

  /** Applies the move if the spec allows it from the current record; true when the record changed. */
  apply(move: ServiceMove, nowMs: number, dryRun = false): boolean {
    const p = this.record;
    const l = p.lifecycle;
    const next = (
      status: string,
      stamps: Partial<Payment['lifecycle']> = {},
      error: unknown = p.error,
    ): boolean => {
      if (dryRun) return true;
      this.history.push({
        ...p,
        status,
        error: error as Payment['error'],
        lifecycle: { ...l, ...stamps },
      } as Payment);
      return true;
    };
    switch (move) {
      case 'fund': // row 2: funds sent before the quote expired
        return p.status === 'AWAITING_FUNDS' && next('PENDING');
      case 'expire': // row 1: no funds within 3 business days
        return p.status === 'AWAITING_FUNDS' && next('EXPIRED', { expiredAt: at(nowMs) });
      case 'process':
        return p.status === 'PENDING' && next('PROCESSING');
      case 'hold': // a status the spec does not name (rule 3: the complete set is not shown)
        return p.status === 'PENDING' && next('ON_HOLD');
      case 'release':
        return p.status === 'ON_HOLD' && next('PROCESSING');
      case 'send':
        return p.status === 'PROCESSING' && next('SENT', { sentAt: at(nowMs) });
      case 'complete':
        return p.status === 'SENT' && next('COMPLETED', { completedAt: at(nowMs) });
      case 'fail': // held funds go back with the failure (docs/spec-gaps.md): the status says FAILED
        return (
          ['PROCESSING', 'SENT'].includes(p.status) &&
          next('FAILED', {}, { code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' })
        );
      case 'lateFundsRefunded': // row 4: funds after expiry are refunded, the status stays EXPIRED
        return (
          p.status === 'EXPIRED' &&
          !l.refundedAt &&
          next('EXPIRED', { refundedAt: at(nowMs) }, { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' })
        );
      case 'refund': // a refund after COMPLETED (row 4)
        return p.status === 'COMPLETED' && next('REFUNDED', { refundedAt: at(nowMs) });
      case 'bankReturn': // the receiving bank returns the funds, weeks later
        return (
          p.status === 'COMPLETED' &&
          next('REFUNDED', { refundedAt: at(nowMs) }, { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK' })
        );
    }
  }
}
