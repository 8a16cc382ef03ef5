import { createHash } from 'node:crypto';
import { CreateAccountRequestSchema, DEFAULT_ACCOUNT_RAILS, validateAccount } from '../../contract';
import { type SandboxCore } from '../core';
import { type FieldViolation, notFound, validationError } from '../http/api-error';
import { type StoredAccount } from '../state';

export function isVirtual(account: { type: string }): boolean {
  return account.type === 'VIRTUAL_BANK_ACCOUNT' || account.type === 'VIRTUAL_DIGITAL_ASSET_WALLET';
}

export function isWallet(account: { type: string }): boolean {
  return account.type === 'EXTERNAL_DIGITAL_ASSET_WALLET' || account.type === 'VIRTUAL_DIGITAL_ASSET_WALLET';
}

/** Country of an account: the bank's, else the holder's address (spec: Account, accountHolder). */
export function accountCountry(account: Record<string, unknown>): string | undefined {
  const bank = account.bank as Record<string, unknown> | undefined;
  const holder = account.accountHolder as { address?: { countryCode?: string } } | undefined;
  return (bank?.countryCode as string | undefined) ?? holder?.address?.countryCode;
}

/** Rail an account receives on when none is asked: its first rail, else a default per currency. */
export function defaultRail(account: StoredAccount): string {
  const rails = account.rails as string[] | undefined;
  if (rails && rails.length > 0) return rails[0]!;
  if (isWallet(account)) return 'POLYGON';
  const byCurrency: Record<string, string> = { USD: 'ACH', BRL: 'TED', INR: 'IMPS' };
  return byCurrency[String(account.currencyCode)] ?? 'LOCAL';
}

/** Country of the sandbox's own bank that holds a virtual bank account of this currency. */
const VIRTUAL_BANK_COUNTRY: Record<string, string> = { USD: 'US', BRL: 'BR' };

/**
 * Country of the bank of a bank account: bank.countryCode; for a virtual account without one, the country
 * of the sandbox bank of its currency; for an external account without one, the holder's country.
 */
export function bankCountry(account: Record<string, unknown>): string | undefined {
  const bank = account.bank as Record<string, unknown> | undefined;
  if (typeof bank?.countryCode === 'string') return bank.countryCode;
  if (account.type === 'VIRTUAL_BANK_ACCOUNT') return VIRTUAL_BANK_COUNTRY[String(account.currencyCode)];
  return accountCountry(account);
}

/**
 * spec: Account, rails — "US accounts: ACH, ACH_SAME_DAY, DOMESTIC WIRE (default all three); BR accounts:
 * TED, PIX (default TED)": by the bank's country only (a USD account at a non-US bank gets no ACH rails),
 * from the contract's DEFAULT_ACCOUNT_RAILS.
 */
function defaultRails(body: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(body.rails)) return (body.rails as string[]).map((r) => (r === 'DOMESTIC WIRE' ? 'DOMESTIC_WIRE' : r));
  if (body.type !== 'EXTERNAL_BANK_ACCOUNT' && body.type !== 'VIRTUAL_BANK_ACCOUNT') return undefined;
  const rails = DEFAULT_ACCOUNT_RAILS[bankCountry(body) ?? ''];
  return rails ? [...rails] : undefined;
}

/**
 * The liquidation account of a virtual account: liquidationAccountId, else the deprecated
 * liquidationInformation (removal postponed, so still in force; spec: Account). Its shape is not shown:
 * we read `liquidationInformation.liquidationAccountId` or `.accountId` (docs/spec-gaps.md, Sandbox).
 */
export function liquidationAccountIdOf(account: Record<string, unknown>): string | null {
  if (typeof account.liquidationAccountId === 'string') return account.liquidationAccountId;
  const info = account.liquidationInformation as Record<string, unknown> | undefined;
  if (info && typeof info === 'object') {
    const id = info.liquidationAccountId ?? info.accountId;
    if (typeof id === 'string' && id.length > 0) return id;
  }
  return null;
}

export class AccountService {
  constructor(private readonly core: SandboxCore) {}

  get(id: string): StoredAccount {
    const account = this.core.data.accounts[id];
    if (!account) throw notFound('Account', id);
    return account;
  }

  /** POST /v1/accounts (spec: Account; rules 1–5 via validateAccount). */
  create(body: unknown, fixedId?: string): StoredAccount {
    const nowMs = this.core.clock.nowMs();
    const violations: FieldViolation[] = validateAccount(body, new Date(nowMs));
    if (violations.length > 0) throw validationError(violations);
    const req = CreateAccountRequestSchema.parse(body);
    const raw = body as Record<string, unknown>;
    const extra: FieldViolation[] = [];
    if (req.customerId !== undefined && !this.core.data.customers[req.customerId]) {
      extra.push({ path: 'customerId', rule: 'CUSTOMER_NOT_FOUND', message: `customer ${req.customerId} does not exist: create it first` });
    }
    if (isVirtual(req) && req.customerId === undefined) {
      extra.push({ path: 'customerId', rule: 'CUSTOMER_REQUIRED', message: 'a virtual account belongs to a customer: add customerId' });
    }
    if (isVirtual(req) && req.currencyCode === undefined) {
      extra.push({ path: 'currencyCode', rule: 'CURRENCY_REQUIRED', message: 'a virtual account holds one currency: add currencyCode' });
    }
    const liquidationId = liquidationAccountIdOf(raw);
    if (liquidationId !== null && !this.core.data.accounts[liquidationId]) {
      const path = req.liquidationAccountId !== undefined ? 'liquidationAccountId' : 'liquidationInformation';
      extra.push({ path, rule: 'ACCOUNT_NOT_FOUND', message: `liquidation account ${liquidationId} does not exist: create it first` });
    }
    if (extra.length > 0) throw validationError(extra);

    const id = fixedId ?? this.core.newId('acc');
    const { paymentAccountHolder, ...fields } = raw;
    const account: StoredAccount = { ...fields, id, type: req.type, createdAt: new Date(nowMs).toISOString() };
    // spec: Account — accountHolder replaces paymentAccountHolder (accepted until 2026-03-04): an account
    // created with the old object only gets it as accountHolder (GET /accounts/:id, Events 4).
    if (account.accountHolder === undefined && paymentAccountHolder !== undefined) account.accountHolder = paymentAccountHolder;
    const rails = defaultRails(raw);
    if (rails) account.rails = rails;
    if (req.type === 'VIRTUAL_BANK_ACCOUNT' && !req.bank?.accountNumber) {
      // The virtual account's own bank details, where senders pay in.
      account.bank = { ...req.bank, name: req.bank?.name ?? 'Sandbox Bank', accountNumber: digitsOf(id, 10), routingNumber: req.bank?.routingNumber ?? '026009593' };
    }
    if (isWallet(account) && !req.walletAddress) account.walletAddress = `0x${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
    this.core.data.accounts[id] = account;
    if (isVirtual(account)) this.core.data.balances[id] = 0;
    // spec: Events 4 — account events carry accountHolder.
    this.core.emit('account.created', account, nowMs);
    return account;
  }

  list(): StoredAccount[] {
    return Object.values(this.core.data.accounts);
  }
}

/** Deterministic digits from an id, starting with 8 so they never equal a magic value. */
function digitsOf(id: string, n: number): string {
  const digest = createHash('sha256').update(id).digest();
  let s = '8';
  for (let i = 0; s.length < n; i++) s += String(digest[i % digest.length]! % 10);
  return s;
}
