import {
  AUTO_LIQUIDATION,
  destinationFromSource,
  isBlockchainRail,
  isInForce,
  type Payment,
  roundMinor,
  ruleStart,
} from '../../contract';
import { type SandboxCore } from '../core';
import { notFound, validationError } from '../http/api-error';
import { type StoredAccount } from '../state';
import { isVirtual, liquidationAccountIdOf } from './accounts';
import { liquidationRail, receivingRail } from './account-rails';
import { findCorridors } from './corridors';
import { accountScriptedFailure } from './magic';
import { buildPayment, fundingAddress, randomTransactionHash } from './payment-builder';
import { type PaymentEngine } from './payments';
import { type RateBook } from './rates';

const MIGRATE = 'deposit.migrate';

export interface DepositResult {
  payin: Payment | null;
  /** The deposit record, before 2025-09-08 only. */
  deposit: Record<string, unknown> | null;
  conversion: Payment | null;
}

/**
 * Funds arriving at a virtual account (control API `POST /sandbox/accounts/:id/deposit`; spec: Payment rule 2).
 * From 2025-09-08 a COMPLETED PAYIN payment; before it a deposit record and an account.deposit event (spec:
 * Deposit, Events 3). With liquidationAccountId, a second payment (INTERNAL or PAYOUT) converts the funds.
 */
export class DepositService {
  constructor(
    private readonly core: SandboxCore,
    private readonly payments: PaymentEngine,
    private readonly rates: RateBook,
  ) {
    core.scheduler.on(MIGRATE, (job) => this.migrate(job.data.deposit as Record<string, unknown>));
  }

  deposit(
    accountId: string,
    input: { amount: number; fromAccountNumber?: string; fromAddress?: string },
  ): DepositResult {
    const data = this.core.data;
    const account = data.accounts[accountId];
    if (!account) throw notFound('Account', accountId);
    if (!isVirtual(account) || !account.currencyCode || !account.customerId) {
      throw validationError([
        {
          path: 'accountId',
          rule: 'ACCOUNT_NOT_VIRTUAL',
          message: 'deposits go to a virtual account with a currency and a customer',
        },
      ]);
    }
    const nowMs = this.core.clock.nowMs();
    const at = new Date(nowMs).toISOString();
    const currency = account.currencyCode as string;
    const rail = receivingRail(account);
    const amount = roundMinor(input.amount, currency);
    data.balances[account.id] = roundMinor((data.balances[account.id] ?? 0) + amount, currency);
    // spec: Account — liquidationAccountId, or the deprecated liquidationInformation (still in force).
    const liquidationId = liquidationAccountIdOf(account);
    const liquidation = liquidationId ? data.accounts[liquidationId] : undefined;
    const convert = () => (liquidation ? this.createConversion(account, liquidation, amount, nowMs) : null);

    if (!isInForce('DEPOSITS_REPLACED_BY_PAYIN', new Date(nowMs))) {
      const deposit = {
        id: this.core.newId('dep'),
        accountId: account.id,
        customerId: account.customerId,
        amount,
        currencyCode: currency,
        rail,
        createdAt: at,
      };
      this.core.emit('account.deposit', deposit, nowMs);
      // spec: Deposit (deprecated) — existing deposits were moved into PAYIN payments when deposits ended.
      const migrateAtMs = ruleStart('DEPOSITS_ENDED')!.getTime();
      this.core.scheduler.schedule(MIGRATE, Math.max(migrateAtMs, nowMs), {
        deposit: {
          ...deposit,
          fromAddress: input.fromAddress ?? null,
          fromAccountNumber: input.fromAccountNumber ?? null,
        },
      });
      return { payin: null, deposit, conversion: convert() };
    }
    const payin = this.payinOf({
      id: this.core.newId('pay'),
      at,
      customerId: account.customerId,
      accountId: account.id,
      amount,
      currency,
      rail,
      fromAddress: input.fromAddress,
      fromAccountNumber: input.fromAccountNumber,
    });
    this.payments.record(
      payin,
      {
        fundsHeld: false,
        pulledFrom: null,
        scriptedFailure: null,
        fundedAt: at,
        fundingSentAt: at,
        fundedAmount: amount,
      },
      nowMs,
    );
    return { payin, deposit: null, conversion: convert() };
  }

  /**
   * spec: Payment rule 2 — funds that arrive at a virtual account with automatic conversion are converted by a
   * second payment, however they arrive: a PAYIN or INTERNAL payment made with POST /payments is converted when
   * it completes (its funds are then on the account), as a deposit of the control API is at once. A conversion
   * arriving at a virtual account that has a liquidation account itself is not converted again (a chain of
   * links, or a loop of two accounts, would otherwise move the funds without end).
   */
  convertArrival(p: Payment, atMs: number): Payment | null {
    if (p.paymentReason === AUTO_LIQUIDATION || (p.type !== 'PAYIN' && p.type !== 'INTERNAL')) return null;
    const account = this.core.data.accounts[p.destination.accountId];
    if (!account || !isVirtual(account)) return null;
    const liquidationId = liquidationAccountIdOf(account);
    const liquidation = liquidationId ? this.core.data.accounts[liquidationId] : undefined;
    return liquidation ? this.createConversion(account, liquidation, p.destination.amount, atMs) : null;
  }

  /**
   * DEPOSITS_ENDED (2025-09-30): a deposit record made before 2025-09-08 becomes a COMPLETED PAYIN payment
   * with the deposit's id and times (gap: how the move looked is not shown; no webhook is sent for it, the
   * record is not new — docs/spec-gaps.md, Sandbox).
   */
  private migrate(d: Record<string, unknown>): void {
    const id = String(d.id);
    if (this.core.data.payments[id]) return;
    const at = String(d.createdAt);
    const amount = Number(d.amount);
    const payin = this.payinOf({
      id,
      at,
      customerId: String(d.customerId),
      accountId: String(d.accountId),
      amount,
      currency: String(d.currencyCode),
      rail: String(d.rail),
      fromAddress: (d.fromAddress as string | null) ?? undefined,
      fromAccountNumber: (d.fromAccountNumber as string | null) ?? undefined,
    });
    this.core.data.payments[id] = payin;
    this.core.data.paymentMeta[id] = {
      fundsHeld: false,
      pulledFrom: null,
      scriptedFailure: null,
      fundedAt: at,
      fundingSentAt: at,
      fundedAmount: amount,
    };
  }

  /** A PAYIN payment of funds that arrived at `at` (COMPLETED at once: the funds are in). */
  private payinOf(i: {
    id: string;
    at: string;
    customerId: string;
    accountId: string;
    amount: number;
    currency: string;
    rail: string;
    fromAddress?: string;
    fromAccountNumber?: string;
  }): Payment {
    return buildPayment({
      id: i.id,
      createdAt: i.at,
      lifecycle: { sentAt: i.at, completedAt: i.at },
      customerId: i.customerId,
      status: 'COMPLETED',
      type: 'PAYIN',
      paymentReason: 'PERSONAL_TRANSFERS',
      fee: 0,
      exchangeRate: 1,
      expiresAt: i.at,
      source: {
        amount: i.amount,
        currencyCode: i.currency,
        rail: i.rail,
        fromAddress: i.fromAddress,
        fromAccountNumber: i.fromAccountNumber,
        transactionHash: isBlockchainRail(i.rail) ? randomTransactionHash() : null,
      },
      destination: { amount: i.amount, rail: i.rail, currencyCode: i.currency, accountId: i.accountId },
      fundingToAddress: fundingAddress(i.accountId, i.rail),
    });
  }

  /**
   * The conversion payment: pulls the deposit from the virtual account at once and runs the steps, on the
   * liquidation account's own rail (`liquidationRail`). null when that account has no usable rail: refused
   * when the virtual account is created, so only a link stored by an older sandbox (`--data-file`) gets
   * here; the funds then stay on the virtual account, as without a liquidation account.
   */
  createConversion(from: StoredAccount, to: StoredAccount, amount: number, nowMs: number): Payment | null {
    const sourceCurrency = from.currencyCode as string;
    const destinationCurrency = (to.currencyCode as string | undefined) ?? sourceCurrency;
    const sourceRail = receivingRail(from);
    const destinationRail = liquidationRail(from, to);
    if (destinationRail === null) return null;
    // spec: Corridor — fees.fixed is specific to the source and destination rail pair: the conversion pays the
    // fee of the corridor of its own pair (the virtual account's receiving rail → the liquidation rail), as the
    // same pull made with POST /payments does.
    const corridor = findCorridors({
      sourceCurrencyCode: sourceCurrency,
      sourceRail,
      destinationCurrencyCode: destinationCurrency,
      destinationRail,
    })[0];
    const midMarketRate = this.rates.midMarketRate(sourceCurrency, destinationCurrency, nowMs);
    const compute = (serviceFee: { fixed: number; variable: number }) =>
      destinationFromSource({
        sourceAmount: amount,
        midMarketRate,
        serviceFee,
        developerFee: { fixed: 0, variable: 0 },
        sourceCurrency,
        destinationCurrency,
      });
    let amounts;
    try {
      amounts = compute(corridor?.fees ?? { fixed: 0, variable: 0 });
    } catch {
      amounts = compute({ fixed: 0, variable: 0 }); // a deposit smaller than the fees is converted without fees
    }
    const at = new Date(nowMs).toISOString();
    const p = buildPayment({
      id: this.core.newId('pay'),
      createdAt: at,
      customerId: from.customerId as string,
      status: 'PENDING',
      type: isVirtual(to) ? 'INTERNAL' : 'PAYOUT',
      paymentReason: AUTO_LIQUIDATION,
      fee: amounts.totalFeeInSourceCurrency,
      exchangeRate: midMarketRate,
      expiresAt: new Date(nowMs + this.core.options.quoteValidityMs).toISOString(),
      source: {
        amount: amounts.sourceAmount,
        currencyCode: sourceCurrency,
        accountId: from.id,
        rail: sourceRail,
      },
      destination: {
        amount: amounts.destinationAmount,
        rail: destinationRail,
        currencyCode: destinationCurrency,
        accountId: to.id,
      },
      fundingToAddress: null,
    });
    const data = this.core.data;
    data.balances[from.id] = roundMinor((data.balances[from.id] ?? 0) - amounts.sourceAmount, sourceCurrency);
    this.payments.record(
      p,
      {
        fundsHeld: true,
        pulledFrom: from.id,
        scriptedFailure: accountScriptedFailure(to),
        fundedAt: at,
        fundingSentAt: at,
        fundedAmount: amounts.sourceAmount,
      },
      nowMs,
    );
    this.payments.startSteps(p, nowMs);
    return p;
  }
}
