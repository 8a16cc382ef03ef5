import { createHash } from 'node:crypto';
import {
  CreateAccountRequestSchema,
  DEFAULT_ACCOUNT_RAILS,
  requirementViolations,
  validateAccount,
} from '../../contract';
import { type SandboxCore } from '../core';
import { type FieldViolation, notFound, validationError } from '../http/api-error';
import { type StoredAccount } from '../state';

import { bankCountry, isVirtual, isWallet } from './account-kind';
import { accountRails, liquidationRail } from './account-rails';
import { accountRequirements } from './requirements';

export { accountCountry, bankCountry, isVirtual, isWallet } from './account-kind';

/**
 * spec: Account, rails — "US accounts: ACH, ACH_SAME_DAY, DOMESTIC WIRE (default all three); BR accounts:
 * TED, PIX (default TED)": by the bank's country only (a USD account at a non-US bank gets no ACH rails),
 * from the contract's DEFAULT_ACCOUNT_RAILS.
 */
function defaultRails(body: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(body.rails))
    return (body.rails as string[]).map((r) => (r === 'DOMESTIC WIRE' ? 'DOMESTIC_WIRE' : r));
  if (body.type !== 'EXTERNAL_BANK_ACCOUNT' && body.type !== 'VIRTUAL_BANK_ACCOUNT') return undefined;
  const rails = DEFAULT_ACCOUNT_RAILS[bankCountry(body) ?? ''];
  return rails ? [...rails] : undefined;
}

/**
 * The liquidation account of a virtual account: liquidationAccountId, else the deprecated
 * liquidationInformation (removal postponed, so still in force; spec: Account). Its shape is not shown:
 * we act on `liquidationInformation.liquidationAccountId` or `.accountId`; any other shape is refused at
 * creation (`liquidationInformationViolation`), never stored to be ignored (docs/spec-gaps.md, Sandbox).
 */
export function liquidationAccountIdOf(account: Record<string, unknown>): string | null {
  if (typeof account.liquidationAccountId === 'string') return account.liquidationAccountId;
  return namedInLiquidationInformation(account.liquidationInformation);
}

function namedInLiquidationInformation(info: unknown): string | null {
  if (!info || typeof info !== 'object') return null;
  const id =
    (info as Record<string, unknown>).liquidationAccountId ?? (info as Record<string, unknown>).accountId;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/**
 * spec: Account — liquidationInformation is deprecated but in force, and replaced by liquidationAccountId. We
 * act on it only when it names an existing account; wallet or bank details (`{walletAddress, currencyCode,
 * chain}` …) would convert to nothing, so they are refused naming the field, as is the field on an account
 * that is not a virtual bank account (like liquidationAccountId) or beside a liquidationAccountId it contradicts.
 */
function liquidationInformationViolation(raw: Record<string, unknown>): FieldViolation | null {
  const info = raw.liquidationInformation;
  if (info === undefined) return null;
  const path = 'liquidationInformation';
  if (raw.type !== 'VIRTUAL_BANK_ACCOUNT') {
    return {
      path,
      rule: 'LIQUIDATION_ACCOUNT_VIRTUAL_ONLY',
      message: 'liquidationInformation applies to VIRTUAL_BANK_ACCOUNT only: remove it',
    };
  }
  const named = namedInLiquidationInformation(info);
  if (named === null) {
    return {
      path,
      rule: 'LIQUIDATION_INFORMATION_UNSUPPORTED',
      message:
        'liquidationInformation must name the liquidation account ({ "liquidationAccountId": "acc_…" }); wallet or bank details are not acted on: create that account with POST /v1/accounts (e.g. an EXTERNAL_DIGITAL_ASSET_WALLET) and give its id as liquidationAccountId',
    };
  }
  if (typeof raw.liquidationAccountId === 'string' && raw.liquidationAccountId !== named) {
    return {
      path,
      rule: 'LIQUIDATION_INFORMATION_CONFLICT',
      message: `liquidationInformation names ${named} but liquidationAccountId names ${raw.liquidationAccountId}: send liquidationAccountId only`,
    };
  }
  return null;
}

/**
 * spec: Account requirement item; What the service does 4 — the requirements the service publishes are the
 * fields an account needs for its rails: an external bank account is checked against the items GET
 * /v1/accounts/requirements lists for its bank's country and currency at this instant, with the contract's
 * `requirementViolations` (the registerAccount workflow runs the same function). A pair without requirements
 * (404 there) is not checked here: no corridor reaches it, so a payment to it is refused (payments.ts).
 * Legacy names still accepted (paymentAccountHolder, stateOrProvince) stand for their replacements.
 */
function requirementsViolations(raw: Record<string, unknown>, asOf: Date): FieldViolation[] {
  if (raw.type !== 'EXTERNAL_BANK_ACCOUNT' || typeof raw.currencyCode !== 'string') return [];
  const country = bankCountry(
    raw.accountHolder === undefined ? { ...raw, accountHolder: raw.paymentAccountHolder } : raw,
  );
  const items = country
    ? accountRequirements(country.toUpperCase(), raw.currencyCode.toUpperCase(), asOf)
    : null;
  return items ? requirementViolations(raw, items) : [];
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
      extra.push({
        path: 'customerId',
        rule: 'CUSTOMER_NOT_FOUND',
        message: `customer ${req.customerId} does not exist: create it first`,
      });
    }
    if (isVirtual(req) && req.customerId === undefined) {
      extra.push({
        path: 'customerId',
        rule: 'CUSTOMER_REQUIRED',
        message: 'a virtual account belongs to a customer: add customerId',
      });
    }
    if (isVirtual(req) && req.currencyCode === undefined) {
      extra.push({
        path: 'currencyCode',
        rule: 'CURRENCY_REQUIRED',
        message: 'a virtual account holds one currency: add currencyCode',
      });
    }
    extra.push(...requirementsViolations(raw, new Date(nowMs)));
    const infoViolation = liquidationInformationViolation(raw);
    if (infoViolation) extra.push(infoViolation);
    const liquidationId = liquidationAccountIdOf(raw);
    const liquidation = liquidationId !== null ? this.core.data.accounts[liquidationId] : undefined;
    const liquidationPath =
      req.liquidationAccountId !== undefined ? 'liquidationAccountId' : 'liquidationInformation';
    if (liquidationId !== null && !liquidation) {
      extra.push({
        path: liquidationPath,
        rule: 'ACCOUNT_NOT_FOUND',
        message: `liquidation account ${liquidationId} does not exist: create it first`,
      });
    } else if (
      liquidation &&
      req.currencyCode !== undefined &&
      liquidationRail({ ...raw, rails: defaultRails(raw) }, liquidation) === null
    ) {
      // spec: Payment rule 2 — the deposit is converted to the liquidation account, so it must be reachable.
      const own = accountRails(liquidation);
      extra.push({
        path: liquidationPath,
        rule: 'LIQUIDATION_ACCOUNT_NO_RAIL',
        message: `liquidation account ${liquidation.id} (${String(liquidation.currencyCode ?? req.currencyCode)}) has no rail a corridor serves from ${req.currencyCode} on this account's receiving rail: ${own.length > 0 ? `its rails ${own.join(', ')} are not served` : 'it lists no rails and its country has no LOCAL default that is served'}; register it with a served rail (see GET /v1/payments/corridors)`,
      });
    }
    if (extra.length > 0) throw validationError(extra);

    const id = fixedId ?? this.core.newId('acc');
    const { paymentAccountHolder, ...fields } = raw;
    const account: StoredAccount = {
      ...fields,
      id,
      type: req.type,
      createdAt: new Date(nowMs).toISOString(),
    };
    // spec: Account — accountHolder replaces paymentAccountHolder (accepted until 2026-03-04): an account
    // created with the old object only gets it as accountHolder (GET /accounts/:id, Events 4).
    if (account.accountHolder === undefined && paymentAccountHolder !== undefined)
      account.accountHolder = paymentAccountHolder;
    const rails = defaultRails(raw);
    if (rails) account.rails = rails;
    if (req.type === 'VIRTUAL_BANK_ACCOUNT' && !req.bank?.accountNumber) {
      // The virtual account's own bank details, where senders pay in.
      account.bank = {
        ...req.bank,
        name: req.bank?.name ?? 'Sandbox Bank',
        accountNumber: digitsOf(id, 10),
        routingNumber: req.bank?.routingNumber ?? '026009593',
      };
    }
    if (isWallet(account) && !req.walletAddress)
      account.walletAddress = `0x${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
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
