import { AUTO_LIQUIDATION, destinationFromSource, isBlockchainRail, isInForce, type Payment, roundMinor } from '../../contract';
import { type SandboxCore } from '../core';
import { notFound, validationError } from '../http/api-error';
import { type StoredAccount } from '../state';
import { accountCountry, defaultRail, isVirtual } from './accounts';
import { findCorridors, resolveLocalRail } from './corridors';
import { accountScriptedFailure } from './magic';
import { buildPayment, fundingAddress, randomTransactionHash } from './payment-builder';
import { type PaymentEngine } from './payments';
import { type RateBook } from './rates';

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
  ) {}

  deposit(accountId: string, input: { amount: number; fromAccountNumber?: string; fromAddress?: string }): DepositResult {
    const data = this.core.data;
    const account = data.accounts[accountId];
    if (!account) throw notFound('Account', accountId);
    if (!isVirtual(account) || !account.currencyCode || !account.customerId) {
      throw validationError([{ path: 'accountId', rule: 'ACCOUNT_NOT_VIRTUAL', message: 'deposits go to a virtual account with a currency and a customer' }]);
    }
    const nowMs = this.core.clock.nowMs();
    const at = new Date(nowMs).toISOString();
    const currency = account.currencyCode as string;
    const rail = defaultRail(account);
    const amount = roundMinor(input.amount, currency);
    data.balances[account.id] = roundMinor((data.balances[account.id] ?? 0) + amount, currency);
    const liquidationId = typeof account.liquidationAccountId === 'string' ? account.liquidationAccountId : null;
    const liquidation = liquidationId ? data.accounts[liquidationId] : undefined;
    const convert = () => (liquidation ? this.createConversion(account, liquidation, amount, nowMs) : null);

    if (!isInForce('DEPOSITS_REPLACED_BY_PAYIN', new Date(nowMs))) {
      const deposit = { id: this.core.newId('dep'), accountId: account.id, customerId: account.customerId, amount, currencyCode: currency, rail, createdAt: at };
      this.core.emit('account.deposit', deposit, nowMs);
      return { payin: null, deposit, conversion: convert() };
    }
    const payin = buildPayment({
      id: this.core.newId('pay'),
      createdAt: at,
      lifecycle: { sentAt: at, completedAt: at },
      customerId: account.customerId,
      status: 'COMPLETED',
      type: 'PAYIN',
      paymentReason: 'PERSONAL_TRANSFERS',
      fee: 0,
      exchangeRate: 1,
      expiresAt: at,
      source: { amount, currencyCode: currency, rail, fromAddress: input.fromAddress, fromAccountNumber: input.fromAccountNumber, transactionHash: isBlockchainRail(rail) ? randomTransactionHash() : null },
      destination: { amount, rail, currencyCode: currency, accountId: account.id },
      fundingToAddress: fundingAddress(account.id, rail),
    });
    this.payments.record(payin, { fundsHeld: false, pulledFrom: null, scriptedFailure: null, fundedAt: at, fundingSentAt: at, fundedAmount: amount }, nowMs);
    return { payin, deposit: null, conversion: convert() };
  }

  /** The conversion payment: pulls the deposit from the virtual account at once and runs the steps. */
  private createConversion(from: StoredAccount, to: StoredAccount, amount: number, nowMs: number): Payment {
    const sourceCurrency = from.currencyCode as string;
    const destinationCurrency = (to.currencyCode as string | undefined) ?? sourceCurrency;
    const sourceRail = defaultRail(from);
    const destinationRail = resolveLocalRail(defaultRail(to), accountCountry(to));
    const corridor = findCorridors({ sourceCurrencyCode: sourceCurrency, destinationCurrencyCode: destinationCurrency, destinationRail })[0];
    const midMarketRate = this.rates.midMarketRate(sourceCurrency, destinationCurrency, nowMs);
    const compute = (serviceFee: { fixed: number; variable: number }) =>
      destinationFromSource({ sourceAmount: amount, midMarketRate, serviceFee, developerFee: { fixed: 0, variable: 0 }, sourceCurrency, destinationCurrency });
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
      source: { amount: amounts.sourceAmount, currencyCode: sourceCurrency, accountId: from.id, rail: sourceRail },
      destination: { amount: amounts.destinationAmount, rail: destinationRail, currencyCode: destinationCurrency, accountId: to.id },
      fundingToAddress: null,
    });
    const data = this.core.data;
    data.balances[from.id] = roundMinor((data.balances[from.id] ?? 0) - amounts.sourceAmount, sourceCurrency);
    this.payments.record(p, { fundsHeld: true, pulledFrom: from.id, scriptedFailure: accountScriptedFailure(to), fundedAt: at, fundingSentAt: at, fundedAmount: amounts.sourceAmount }, nowMs);
    this.payments.startSteps(p, nowMs);
    return p;
  }
}
