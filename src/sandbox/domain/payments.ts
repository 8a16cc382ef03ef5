import { randomUUID } from 'node:crypto';
import {
  addBusinessDays,
  type CalculatedAmounts,
  type Corridor,
  CURRENCY_HOME_COUNTRY,
  currentRail,
  type CreatePaymentRequest,
  CreatePaymentRequestSchema,
  destinationFromSource,
  type FailureCode,
  FeeCalculationError,
  isBlockchainRail,
  isInForce,
  type Payment,
  type PaymentStatus,
  type PaymentType,
  roundMinor,
  validatePaymentRequest,
} from '../../contract';
import { type SandboxCore } from '../core';
import { ApiError, type FieldViolation, notFound, validationError } from '../http/api-error';
import { type PaymentMeta, type StoredAccount } from '../state';
import { bankCountry, isVirtual } from './accounts';
import { buildPayment, fundingAddress, randomDigits, randomTransactionHash } from './payment-builder';
import { findCorridors, resolveLocalRail } from './corridors';
import { accountScriptedFailure, paymentScriptedFailure } from './magic';
import {
  checkCustomer,
  checkDestinationAccount,
  checkDestinationRail,
  checkSourceAccount,
} from './payment-request';
import { presentPayment } from './present';
import { type RateBook } from './rates';

const STEP = 'payment.step';
const QUOTE_EXPIRY = 'payment.quoteExpiry';
const FUNDING_DEADLINE = 'payment.fundingDeadline';
const RETURN = 'payment.return';

/** A request of the control API that the payment's state does not allow. */
const invalidState = (p: Payment, action: string): ApiError =>
  new ApiError(409, 'INVALID_STATE', `Cannot ${action} payment ${p.id} in status ${p.status}`);

/**
 * The payment state machine (spec: States and transitions) and money movements of the sandbox.
 * Every change is a scheduler job on the sandbox clock, applied at the job's due instant.
 */
export class PaymentEngine {
  /** Called when a payment completes into a virtual account (its funds are there): automatic conversion (index.ts). */
  onArrived: ((p: Payment, atMs: number) => void) | null = null;

  constructor(
    private readonly core: SandboxCore,
    private readonly rates: RateBook,
  ) {
    core.scheduler.on(STEP, (job, at) =>
      this.step(String(job.data.paymentId), job.data.from as PaymentStatus, at),
    );
    core.scheduler.on(QUOTE_EXPIRY, (job, at) => this.quoteExpired(String(job.data.paymentId), at));
    core.scheduler.on(FUNDING_DEADLINE, (job, at) => this.fundingDeadline(String(job.data.paymentId), at));
    core.scheduler.on(RETURN, (job, at) => this.returnFunds(String(job.data.paymentId), at));
  }

  private get data() {
    return this.core.data;
  }

  get(id: string): Payment {
    const p = this.data.payments[id];
    if (!p) throw notFound('Payment', id);
    return p;
  }

  present(p: Payment, forGet: boolean, atMs = this.core.clock.nowMs()): Record<string, unknown> {
    return presentPayment(p, new Date(atMs), this.data, forGet);
  }

  /** POST /v1/payments (spec: Endpoints, POST /payments body; States and transitions, rule 1). */
  create(body: unknown): Payment {
    const nowMs = this.core.clock.nowMs();
    const asOf = new Date(nowMs);
    const violations = validatePaymentRequest(body, asOf);
    if (violations.length > 0) throw validationError(violations);
    const req = CreatePaymentRequestSchema.parse(body);
    const raw = body as Record<string, unknown>;
    const checked = this.checkRequest(req, raw, asOf);
    const { source, destination } = checked;
    const midMarketRate = this.rates.midMarketRate(
      req.source.currencyCode,
      req.destination.currencyCode,
      nowMs,
    );
    const amounts = amountsOf(req, checked, midMarketRate);
    const id = this.core.newId('pay');
    if (source) this.assertFunds(source, amounts.sourceAmount, req.source.currencyCode);
    const createdAt = new Date(nowMs).toISOString();
    const expiresAtMs = nowMs + this.core.options.quoteValidityMs;
    const payment = newPayment({ id, createdAt, expiresAtMs, req, raw, checked, amounts, midMarketRate });
    const meta: PaymentMeta = {
      fundsHeld: source !== null,
      pulledFrom: source?.id ?? null,
      scriptedFailure: paymentScriptedFailure(payment.reference) ?? accountScriptedFailure(destination),
      fundedAt: source ? createdAt : null,
      fundingSentAt: null,
      fundedAmount: source ? amounts.sourceAmount : null,
    };
    if (source)
      this.data.balances[source.id] = roundMinor(
        (this.data.balances[source.id] ?? 0) - amounts.sourceAmount,
        req.source.currencyCode,
      );
    this.record(payment, meta, nowMs);
    if (source) this.startSteps(payment, nowMs);
    else {
      // Both deadlines are scheduled; each checks, when it fires, which rule is in force at that instant.
      this.core.scheduler.schedule(QUOTE_EXPIRY, expiresAtMs, { paymentId: id });
      const deadline = addBusinessDays(new Date(nowMs), 3, this.core.options.holidays).getTime();
      this.core.scheduler.schedule(FUNDING_DEADLINE, deadline, { paymentId: id });
    }
    return payment;
  }

  /**
   * A valid request against the sandbox's state (accounts, customer, rails, corridor, developer fee): every
   * violation is answered at once (422), else what the payment is made of.
   */
  private checkRequest(req: CreatePaymentRequest, raw: Record<string, unknown>, asOf: Date): CheckedRequest {
    const extra: FieldViolation[] = [];
    // spec: POST /payments — legacy rail CRYPTO: the chain value replaces it and is stored as the rail (on
    // either side); spec: Rail values — WIRE is deprecated for SWIFT.
    const rawSource = raw.source as Record<string, unknown>;
    const rawDestination = raw.destination as Record<string, unknown>;
    const requestedSourceRail = currentRail(req.source.rail, rawSource.chain, asOf);
    const requestedDestinationRail = currentRail(req.destination.rail, rawDestination.chain, asOf);
    const destination = checkDestinationAccount(this.data, req, extra);
    const source = checkSourceAccount(this.data, req, extra);
    const customerId = checkCustomer(this.data, req, source, destination, extra);
    const destinationRail = checkDestinationRail(destination, requestedDestinationRail, asOf, extra);
    // spec: Rail values — LOCAL is mapped to the country's default rail, on the funding side too (source.rail is
    // "a rail value"): the pulled account's bank country, else the home country of the currency sent.
    const sourceRail = resolveLocalRail(
      requestedSourceRail,
      source ? bankCountry(source) : CURRENCY_HOME_COUNTRY[req.source.currencyCode],
    );
    const corridor = this.corridorOf(
      req.source.currencyCode,
      sourceRail,
      req.destination.currencyCode,
      destinationRail,
      destination,
      extra,
    );
    const developerFee = readDeveloperFee(raw.developerFee, extra);
    if (extra.length > 0 || !corridor || !destination || !customerId) throw validationError(extra);
    return { source, destination, customerId, sourceRail, destinationRail, corridor, developerFee };
  }

  /** spec: States and transitions, rule 1 — funds are pulled at once. Short → 422, no record (docs/sandbox.md). */
  private assertFunds(source: StoredAccount, amount: number, currencyCode: string): void {
    const balance = this.data.balances[source.id] ?? 0;
    if (balance < amount) {
      throw new ApiError(
        422,
        'INSUFFICIENT_FUNDS',
        `Account ${source.id} holds ${balance} ${currencyCode}; the payment needs ${amount}`,
        [
          {
            path: 'source.amount',
            rule: 'INSUFFICIENT_FUNDS',
            message: 'fund the virtual account first, or send a smaller amount',
          },
        ],
      );
    }
  }

  /**
   * The corridor of a payment (spec: Corridor — source and destination currencies and rails, and the
   * destination's countryCode): the side no corridor serves is named (source.rail when none leaves from the
   * source currency and rail, else destination.rail); an external bank account is reached only through a
   * corridor listing its bank's country, so a EUR account in Belgium, which no corridor lists, is refused on
   * destination.accountId. Virtual accounts are at the service's own bank, and wallets have no country.
   */
  private corridorOf(
    sourceCurrencyCode: string,
    sourceRail: string,
    destinationCurrencyCode: string,
    destinationRail: string,
    destination: StoredAccount | undefined,
    extra: FieldViolation[],
  ) {
    const pair = { sourceCurrencyCode, sourceRail, destinationCurrencyCode, destinationRail };
    const served = findCorridors(pair);
    if (served.length === 0) {
      const fromSource = findCorridors({ sourceCurrencyCode, sourceRail }).length > 0;
      extra.push({
        path: fromSource ? 'destination.rail' : 'source.rail',
        rule: 'CORRIDOR_UNSUPPORTED',
        message: `no corridor ${sourceCurrencyCode}/${sourceRail} → ${destinationCurrencyCode}/${destinationRail}${fromSource ? '' : `: none leaves from ${sourceCurrencyCode} on ${sourceRail}`}: see GET /v1/payments/corridors`,
      });
      return undefined;
    }
    const country =
      destination?.type === 'EXTERNAL_BANK_ACCOUNT' && !isBlockchainRail(destinationRail)
        ? bankCountry(destination)
        : undefined;
    if (country === undefined) return served[0];
    const corridor = served.find((c) => c.destination.countryCode === country);
    if (!corridor) {
      extra.push({
        path: 'destination.accountId',
        rule: 'CORRIDOR_UNSUPPORTED',
        message: `no corridor reaches ${destinationCurrencyCode} accounts in ${country} on ${destinationRail} (corridors: ${[...new Set(served.map((c) => c.destination.countryCode))].join(', ')}): see GET /v1/payments/corridors`,
      });
    }
    return corridor;
  }

  /**
   * Funding notice (control API; spec: States and transitions rows 2, 4 and 5). `sentAt` is when the
   * sender sent the funds; the notice itself arrives now.
   */
  fund(id: string, input: { sentAt?: string; amount?: number; transactionHash?: string }): Payment {
    const p = this.get(id);
    const nowMs = this.core.clock.nowMs();
    const sentAtMs = input.sentAt === undefined ? nowMs : Date.parse(input.sentAt);
    if (sentAtMs > nowMs || sentAtMs < Date.parse(p.lifecycle.createdAt!)) {
      throw validationError([
        {
          path: 'sentAt',
          rule: 'SCHEMA',
          message: 'give a sentAt between the creation of the payment and the sandbox clock',
        },
      ]);
    }
    if (p.source.accountId) throw invalidState(p, 'fund (its funds were pulled from source.accountId)');
    const meta = this.data.paymentMeta[id]!;
    const sentBeforeExpiry = sentAtMs < Date.parse(p.quote.expiresAt);
    const record = () => {
      meta.fundingSentAt = new Date(sentAtMs).toISOString();
      meta.fundedAt = new Date(nowMs).toISOString();
      meta.fundedAmount = input.amount ?? p.fundingInstructions.amount;
      if (isBlockchainRail(p.source.rail))
        p.source.transactionHash = input.transactionHash ?? randomTransactionHash();
    };
    // Each notice is judged by its own sentAt: a transfer refunded before (sent late) does not decide the fate of
    // the next one. A late one is refunded again (refundedAt moves to this refund, one payment.updated, never a
    // 409 that would leave the sender's funds nowhere); one sent before quote.expiresAt moves the payment on
    // (row 2; row 5 before 2026-03-30), and the payment then continues as a normal payment: the earlier refund's
    // refundedAt and failure code are cleared, as they concerned another transfer (docs/spec-gaps.md, Sandbox).
    const moveOn = () => {
      p.lifecycle.refundedAt = null;
      p.error = null;
      p.statusReasons = null;
    };
    if (p.status === 'AWAITING_FUNDS') {
      record();
      if (sentBeforeExpiry) {
        // spec: States and transitions, row 2 — honoured even when the notice is late.
        meta.fundsHeld = true;
        this.transition(p, 'PENDING', nowMs, moveOn);
        this.scheduleStep(p, nowMs + this.core.options.stepDelaysMs.toProcessing);
      } else {
        // Gap (docs/spec-gaps.md, Sandbox): funds sent after quote expiry while still AWAITING_FUNDS are
        // refunded as in the nearest spec row (EXPIRED, row 4): the status does not change; refundedAt and
        // the failure code are set. The payment still expires at its funding deadline.
        this.update(p, nowMs, () => {
          p.lifecycle.refundedAt = new Date(nowMs).toISOString();
          this.setError(p, 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED', nowMs);
        });
      }
      return p;
    }
    if (p.status === 'EXPIRED') {
      record();
      if (!isInForce('AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS', new Date(nowMs)) && sentBeforeExpiry) {
        // spec: States and transitions, row 5 (before 2026-03-30) — SENT, then COMPLETED.
        meta.fundsHeld = true;
        this.transition(p, 'SENT', nowMs, () => {
          moveOn();
          this.markSent(p, nowMs);
        });
        this.scheduleStep(p, nowMs + this.core.options.stepDelaysMs.toCompleted);
      } else {
        // spec: States and transitions, row 4 — stays EXPIRED, funds refunded with the failure code.
        this.update(p, nowMs, () => {
          p.lifecycle.refundedAt = new Date(nowMs).toISOString();
          this.setError(p, 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED', nowMs);
        });
      }
      return p;
    }
    throw invalidState(p, 'fund');
  }

  /** Control API: fail with a failure code (spec: Errors 3). Funds held are refunded. */
  fail(id: string, code: FailureCode, atMs = this.core.clock.nowMs()): Payment {
    const p = this.get(id);
    if (!['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT'].includes(p.status))
      throw invalidState(p, 'fail');
    const meta = this.data.paymentMeta[id]!;
    this.transition(p, 'FAILED', atMs, () => {
      this.setError(p, code, atMs);
      if (meta.fundsHeld) this.refundHeldFunds(p, meta, atMs);
    });
    return p;
  }

  /**
   * Control API: the service holds an unfunded payment under a status the spec does not name ("The complete set of
   * status values: not shown", States and transitions), e.g. ON_HOLD: its GET and its webhook both say so. For
   * tests of values the contract does not know; the payment stays there until it is funded or expires.
   */
  holdUnder(id: string, status: string, atMs = this.core.clock.nowMs()): Payment {
    const p = this.get(id);
    if (p.status !== 'AWAITING_FUNDS') throw invalidState(p, 'hold');
    this.transition(p, status as PaymentStatus, atMs);
    return p;
  }

  /** Control API / magic value: funds returned by the receiving bank after SENT or COMPLETED → REFUNDED. */
  returnFunds(id: string, atMs = this.core.clock.nowMs()): Payment {
    const p = this.get(id);
    if (p.status !== 'SENT' && p.status !== 'COMPLETED') throw invalidState(p, 'return');
    const meta = this.data.paymentMeta[id]!;
    const destination = this.data.accounts[p.destination.accountId];
    if (p.status === 'COMPLETED' && destination && isVirtual(destination)) {
      this.data.balances[destination.id] = roundMinor(
        (this.data.balances[destination.id] ?? 0) - p.destination.amount,
        p.destination.currencyCode,
      );
    }
    this.transition(p, 'REFUNDED', atMs, () => {
      this.setError(p, 'FUNDS_RETURNED_BY_RECEIVING_BANK', atMs);
      this.refundHeldFunds(p, meta, atMs);
    });
    return p;
  }

  /** PENDING → PROCESSING → SENT → COMPLETED, each after its delay (spec: States and transitions). */
  private step(id: string, from: PaymentStatus, atMs: number): void {
    const p = this.data.payments[id];
    if (!p || p.status !== from) return; // a stale step: the payment moved on (failed, refunded, …)
    const meta = this.data.paymentMeta[id]!;
    const delays = this.core.options.stepDelaysMs;
    if (from === 'PENDING') {
      this.transition(p, 'PROCESSING', atMs);
      this.scheduleStep(p, atMs + delays.toSent);
    } else if (from === 'PROCESSING') {
      const scripted = meta.scriptedFailure as FailureCode | null;
      if (scripted && scripted !== 'FUNDS_RETURNED_BY_RECEIVING_BANK') {
        this.fail(id, scripted, atMs);
        return;
      }
      this.transition(p, 'SENT', atMs, () => this.markSent(p, atMs));
      this.scheduleStep(p, atMs + delays.toCompleted);
    } else if (from === 'SENT') {
      this.transition(p, 'COMPLETED', atMs, () => {
        p.lifecycle.completedAt = new Date(atMs).toISOString();
        const destination = this.data.accounts[p.destination.accountId];
        if (destination && isVirtual(destination)) {
          this.data.balances[destination.id] = roundMinor(
            (this.data.balances[destination.id] ?? 0) + p.destination.amount,
            p.destination.currencyCode,
          );
        }
      });
      const arrived = this.data.accounts[p.destination.accountId];
      if (arrived && isVirtual(arrived)) this.onArrived?.(p, atMs);
      if (meta.scriptedFailure === 'FUNDS_RETURNED_BY_RECEIVING_BANK')
        this.core.scheduler.schedule(RETURN, atMs + delays.toCompleted, { paymentId: id });
    }
  }

  /** spec: States and transitions, rule 2 (before 2026-03-30) and row 3 (from then: no change). */
  private quoteExpired(id: string, atMs: number): void {
    const p = this.data.payments[id];
    if (!p || p.status !== 'AWAITING_FUNDS') return;
    if (isInForce('AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS', new Date(atMs))) return;
    this.expire(p, atMs);
  }

  /** spec: States and transitions, row 1 — no funds within 3 business days (from 2026-03-30). */
  private fundingDeadline(id: string, atMs: number): void {
    const p = this.data.payments[id];
    if (!p || p.status !== 'AWAITING_FUNDS') return;
    if (!isInForce('AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS', new Date(atMs))) return;
    this.expire(p, atMs);
  }

  private expire(p: Payment, atMs: number): void {
    this.transition(p, 'EXPIRED', atMs, () => {
      p.lifecycle.expiredAt = new Date(atMs).toISOString();
    });
  }

  private markSent(p: Payment, atMs: number): void {
    p.lifecycle.sentAt = new Date(atMs).toISOString();
    const rail = p.destination.rail;
    if (isBlockchainRail(rail)) p.destination.transactionHash = randomTransactionHash();
    else if (rail === 'SWIFT') p.tracking.uetr = randomUUID();
    else if (rail === 'DOMESTIC_WIRE') {
      p.tracking.imad = `${new Date(atMs).toISOString().slice(0, 10).replace(/-/g, '')}SBXIMAD${randomDigits(6)}`;
      p.tracking.omad = `${new Date(atMs).toISOString().slice(0, 10).replace(/-/g, '')}SBXOMAD${randomDigits(6)}`;
    } else p.tracking.traceNumber = randomDigits(15);
  }

  /** Codes are in use from 2026-03-15 (spec: Errors 3); before, the error says UNSPECIFIED (docs/sandbox.md). */
  private setError(p: Payment, code: FailureCode, atMs: number): void {
    if (isInForce('FAILURE_CODES_IN_USE', new Date(atMs))) {
      p.error = { code, message: code.toLowerCase().replace(/_/g, ' ') };
      p.statusReasons = [code];
    } else {
      p.error = { code: 'UNSPECIFIED', message: code.toLowerCase().replace(/_/g, ' ') };
      p.statusReasons = null;
    }
  }

  private refundHeldFunds(p: Payment, meta: PaymentMeta, atMs: number): void {
    if (!meta.fundsHeld) return;
    meta.fundsHeld = false;
    p.lifecycle.refundedAt = new Date(atMs).toISOString();
    if (meta.pulledFrom) {
      this.data.balances[meta.pulledFrom] = roundMinor(
        (this.data.balances[meta.pulledFrom] ?? 0) + p.source.amount,
        p.source.currencyCode,
      );
    }
  }

  private scheduleStep(p: Payment, dueAtMs: number): void {
    this.core.scheduler.schedule(STEP, dueAtMs, { paymentId: p.id, from: p.status });
  }

  /** Runs the steps of a PENDING payment from `atMs`. */
  startSteps(p: Payment, atMs: number): void {
    this.scheduleStep(p, atMs + this.core.options.stepDelaysMs.toProcessing);
  }

  /** Stores a new payment and emits payment.created. */
  record(p: Payment, meta: PaymentMeta, atMs: number): void {
    this.data.payments[p.id] = p;
    this.data.paymentMeta[p.id] = meta;
    this.core.emit('payment.created', this.present(p, false, atMs), atMs);
  }

  /** Status change + one payment.updated event (spec: Events; docs/spec-gaps.md, event names). */
  private transition(p: Payment, status: PaymentStatus, atMs: number, effects?: () => void): void {
    p.status = status;
    effects?.();
    this.core.emit('payment.updated', this.present(p, false, atMs), atMs);
  }

  /** A change without a status change (a refund of an EXPIRED payment). */
  private update(p: Payment, atMs: number, effects: () => void): void {
    effects();
    this.core.emit('payment.updated', this.present(p, false, atMs), atMs);
  }
}

function readDeveloperFee(raw: unknown, extra: FieldViolation[]): { fixed: number; variable: number } {
  if (raw === undefined || raw === null) return { fixed: 0, variable: 0 };
  const r = raw as Record<string, unknown>;
  const fixed = r.fixed ?? 0;
  const variable = r.variable ?? 0;
  if (typeof fixed !== 'number' || fixed < 0)
    extra.push({
      path: 'developerFee.fixed',
      rule: 'SCHEMA',
      message: 'developerFee.fixed must be a number ≥ 0',
    });
  if (typeof variable !== 'number' || variable < 0 || variable >= 1)
    extra.push({
      path: 'developerFee.variable',
      rule: 'SCHEMA',
      message: 'developerFee.variable must be a fraction in [0, 1)',
    });
  return {
    fixed: typeof fixed === 'number' ? fixed : 0,
    variable: typeof variable === 'number' ? variable : 0,
  };
}

/** What checkRequest found: the accounts, customer, rails, corridor and developer fee the payment is made of. */
interface CheckedRequest {
  source: StoredAccount | null;
  destination: StoredAccount;
  customerId: string;
  sourceRail: string;
  destinationRail: string;
  corridor: Corridor;
  developerFee: { fixed: number; variable: number };
}

/** The payment's amounts from the amount sent (spec: Fees): an amount the fees exceed is refused (422). */
function amountsOf(
  req: CreatePaymentRequest,
  checked: CheckedRequest,
  midMarketRate: number,
): CalculatedAmounts {
  try {
    return destinationFromSource({
      sourceAmount: req.source.amount,
      midMarketRate,
      serviceFee: checked.corridor.fees,
      developerFee: checked.developerFee,
      sourceCurrency: req.source.currencyCode,
      destinationCurrency: req.destination.currencyCode,
    });
  } catch (err) {
    if (err instanceof FeeCalculationError)
      throw validationError([{ path: 'source.amount', rule: 'AMOUNT_BELOW_FEES', message: err.message }]);
    throw err;
  }
}

/** Pulled from a virtual account or funded from outside, paid to a virtual account or out. */
function paymentTypeOf(source: StoredAccount | null, destination: StoredAccount): PaymentType {
  if (source) return isVirtual(destination) ? 'INTERNAL' : 'PAYOUT';
  return isVirtual(destination) ? 'PAYIN' : 'EXTERNAL';
}

/** The new payment's record: PENDING when its funds were pulled, else AWAITING_FUNDS at its funding address. */
function newPayment(n: {
  id: string;
  createdAt: string;
  expiresAtMs: number;
  req: CreatePaymentRequest;
  raw: Record<string, unknown>;
  checked: CheckedRequest;
  amounts: CalculatedAmounts;
  midMarketRate: number;
}): Payment {
  const { id, req, checked, amounts } = n;
  const { source, destination, corridor, sourceRail } = checked;
  const s = checked.developerFee;
  const rawSource = n.raw.source as Record<string, unknown>;
  const devTotal = (req.source.amount - corridor.fees.fixed) * (1 - corridor.fees.variable) - s.fixed;
  return buildPayment({
    id,
    createdAt: n.createdAt,
    customerId: checked.customerId,
    status: source ? 'PENDING' : 'AWAITING_FUNDS',
    type: paymentTypeOf(source, destination),
    paymentReason: req.paymentReason,
    fee: amounts.totalFeeInSourceCurrency,
    exchangeRate: n.midMarketRate,
    expiresAt: new Date(n.expiresAtMs).toISOString(),
    comment: req.comment,
    reference: req.reference ?? (typeof n.raw.memo === 'string' ? n.raw.memo : null),
    returnAddress: req.returnAddress,
    developerFee: {
      fixed: s.fixed,
      variable: s.variable,
      total: roundMinor(s.fixed + devTotal * s.variable, req.source.currencyCode),
    },
    source: {
      amount: amounts.sourceAmount,
      currencyCode: req.source.currencyCode,
      accountId: source?.id,
      rail: sourceRail,
      fromAddress: req.source.fromAddress,
      fromAccountNumber: typeof rawSource.fromAccountNumber === 'string' ? rawSource.fromAccountNumber : null,
    },
    destination: {
      amount: amounts.destinationAmount,
      rail: checked.destinationRail,
      currencyCode: req.destination.currencyCode,
      accountId: destination.id,
    },
    fundingToAddress: source ? null : fundingAddress(id, sourceRail),
  });
}
