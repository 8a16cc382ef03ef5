import { createHash } from 'node:crypto';
import { CreateAccountRequestSchema, validateAccount } from '../../contract';
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

/** spec: Account, rails — US accounts default to ACH, ACH_SAME_DAY, DOMESTIC_WIRE; BR accounts to TED. */
function defaultRails(body: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(body.rails)) return (body.rails as string[]).map((r) => (r === 'DOMESTIC WIRE' ? 'DOMESTIC_WIRE' : r));
  if (body.type !== 'EXTERNAL_BANK_ACCOUNT' && body.type !== 'VIRTUAL_BANK_ACCOUNT') return undefined;
  const country = accountCountry(body);
  if (country === 'US' || body.currencyCode === 'USD') return ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'];
  if (country === 'BR' || body.currencyCode === 'BRL') return ['TED'];
  return undefined;
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
    if (req.liquidationAccountId !== undefined && !this.core.data.accounts[req.liquidationAccountId]) {
      extra.push({ path: 'liquidationAccountId', rule: 'ACCOUNT_NOT_FOUND', message: `liquidation account ${req.liquidationAccountId} does not exist: create it first` });
    }
    if (extra.length > 0) throw validationError(extra);

    const id = fixedId ?? this.core.newId('acc');
    const account: StoredAccount = { ...raw, id, type: req.type, createdAt: new Date(nowMs).toISOString() };
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
