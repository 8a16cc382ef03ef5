import { createHash, randomBytes } from 'node:crypto';
import { isBlockchainRail, type Payment, type PaymentStatus, type PaymentType } from '../../contract';

/** What varies between the payments the sandbox creates; everything else starts empty (spec: Payment). */
export interface PaymentDraft {
  id: string;
  createdAt: string;
  customerId: string;
  status: PaymentStatus;
  type: PaymentType;
  paymentReason: string;
  fee: number;
  exchangeRate: number;
  expiresAt: string;
  source: {
    amount: number;
    currencyCode: string;
    rail: string;
    accountId?: string | null;
    fromAddress?: string | null;
    transactionHash?: string | null;
    fromAccountNumber?: string | null;
  };
  destination: { amount: number; currencyCode: string; rail: string; accountId: string };
  /** Where the sender pays in; null when the funds are pulled from a virtual account. */
  fundingToAddress: string | null;
  developerFee?: Payment['developerFee'];
  comment?: string | null;
  reference?: string | null;
  returnAddress?: string | null;
  lifecycle?: Partial<Payment['lifecycle']>;
}

export function buildPayment(d: PaymentDraft): Payment {
  return {
    id: d.id,
    lifecycle: {
      createdAt: d.createdAt,
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
      ...d.lifecycle,
    },
    customerId: d.customerId,
    status: d.status,
    statusReasons: null,
    error: null,
    type: d.type,
    comment: d.comment ?? null,
    reference: d.reference ?? null,
    returnAddress: d.returnAddress ?? null,
    paymentReason: d.paymentReason,
    fee: d.fee,
    developerFee: d.developerFee ?? { fixed: null, variable: null, total: null },
    quote: { exchangeRate: d.exchangeRate, expiresAt: d.expiresAt },
    tracking: { traceNumber: null, omad: null, imad: null, certificate: null, uetr: null },
    files: [],
    configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
    source: {
      amount: d.source.amount,
      currencyCode: d.source.currencyCode,
      accountId: d.source.accountId ?? null,
      rail: d.source.rail,
      fromAddress: d.source.fromAddress ?? null,
      transactionHash: d.source.transactionHash ?? null,
      fromAccountNumber: d.source.fromAccountNumber ?? null,
    },
    destination: { ...d.destination, transactionHash: null },
    fundingInstructions: {
      rail: d.source.rail,
      amount: d.source.amount,
      toAddress: d.fundingToAddress,
      fromAddress: d.source.fromAddress ?? null,
      currencyCode: d.source.currencyCode,
    },
  };
}

/** A deterministic deposit address per payment or account: a 0x address on chains, an account number on bank rails. */
export function fundingAddress(id: string, rail: string): string {
  const digest = createHash('sha256').update(id).digest('hex');
  if (isBlockchainRail(rail)) return `0x${digest.slice(0, 40)}`;
  return `9${BigInt(`0x${digest.slice(0, 15)}`)
    .toString()
    .slice(0, 11)}`;
}

export function randomDigits(n: number): string {
  let s = '';
  while (s.length < n) s += randomBytes(8).readBigUInt64BE().toString();
  return s.slice(0, n);
}

export function randomTransactionHash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}
