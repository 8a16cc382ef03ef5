import { isInForce, reachRails } from '../../contract';
import { type StoredAccount } from '../state';
import { bankCountry, isWallet } from './account-kind';
import { findCorridors, resolveLocalRail } from './corridors';

// Which rails an account is reached on. spec: Account, rails (US and BR defaults, stored on the account at
// creation); Rail values — LOCAL is the country's default rail. The currency of an account never picks a
// rail: a USD account at a British bank is not on ACH.

/**
 * The rails the account is reached on ([] when it lists none): its stored rails as the contract's `reachRails`
 * reads them — LOCAL resolved by the bank's country, and a deprecated rail stored while it was accepted keeps
 * its meaning (WIRE is SWIFT, CRYPTO every blockchain), so such an account stays payable.
 */
export function accountRails(account: Record<string, unknown>): string[] {
  const rails = Array.isArray(account.rails)
    ? (account.rails as unknown[]).filter((r): r is string => typeof r === 'string')
    : [];
  return reachRails(rails, bankCountry(account));
}

/**
 * Rail funds arrive on at a virtual account (the PAYIN of a deposit): its first rail, else the LOCAL default of
 * its bank's country (LOCAL where the country has none). A wallet without rails: POLYGON (the sandbox's
 * first chain; docs/spec-gaps.md, Sandbox).
 */
export function receivingRail(account: StoredAccount): string {
  const own = accountRails(account);
  if (own.length > 0) return own[0]!;
  if (isWallet(account)) return 'POLYGON';
  return resolveLocalRail('LOCAL', bankCountry(account));
}

/**
 * Rail of the automatic conversion from virtual account `from` to its liquidation account `to` (spec: Account,
 * liquidationAccountId; Payment rule 2): the first of `to`'s own rails that a corridor serves from `from`'s
 * receiving rail and currency (spec: Corridor — the fee is specific to the source and destination rail pair,
 * so the pair must exist), else — when `to` lists no rails — the LOCAL default of its bank's country if a
 * corridor serves it. null: the liquidation account has no usable rail (refused when the virtual account is
 * created). A wallet without rails has no usable rail: no chain can be picked for it.
 */
export function liquidationRail(from: Record<string, unknown>, to: Record<string, unknown>): string | null {
  const own = accountRails(to);
  const candidates =
    own.length > 0
      ? own
      : isWallet(to as { type: string })
        ? []
        : [resolveLocalRail('LOCAL', bankCountry(to))];
  const sourceCurrencyCode = String(from.currencyCode);
  const sourceRail = receivingRail(from as StoredAccount);
  const destinationCurrencyCode = typeof to.currencyCode === 'string' ? to.currencyCode : sourceCurrencyCode;
  return (
    candidates.find(
      (destinationRail) =>
        findCorridors({ sourceCurrencyCode, sourceRail, destinationCurrencyCode, destinationRail }).length >
        0,
    ) ?? null
  );
}

/**
 * A payment's destination rail outside the destination account's rails (spec: Account, rails — given with the
 * rail-specific POST /payments and POST /accounts of 2025-08-25). An account that lists no rails takes any
 * rail a corridor serves. Before 2025-08-25 accounts had no rails to check against.
 */
export function railOffAccount(account: Record<string, unknown>, rail: string, asOf: Date): string[] | null {
  if (!isInForce('NEW_ENDPOINTS_ADDED', asOf)) return null;
  const own = accountRails(account);
  return own.length > 0 && !own.includes(rail) ? own : null;
}
