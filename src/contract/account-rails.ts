// Which rails an account is reached on (spec: Account, rails; Rail values). Pure and zod-free: read by the
// sandbox and by workflow code (register-account) alike, so both see the same rails.
import { BLOCKCHAIN_RAILS, DEFAULT_ACCOUNT_RAILS } from './enums';

/** spec: Rail values — LOCAL is mapped to the country-specific default rail (US → ACH, BR → TED, IN → IMPS). */
export const LOCAL_DEFAULT_RAIL: Readonly<Record<string, string>> = { US: 'ACH', BR: 'TED', IN: 'IMPS' };

/**
 * Home country of a fiat currency whose country has a LOCAL default: where LOCAL on the funding side
 * (`source.rail`, which has no account country when funds are sent in) is resolved. Other currencies keep LOCAL.
 */
export const CURRENCY_HOME_COUNTRY: Readonly<Record<string, string>> = { USD: 'US', BRL: 'BR', INR: 'IN' };

/** LOCAL → the country's default rail; any other rail (and LOCAL where the country has none) unchanged. */
export function resolveLocalRail(rail: string, countryCode: string | undefined): string {
  if (rail !== 'LOCAL' || !countryCode) return rail;
  return LOCAL_DEFAULT_RAIL[countryCode] ?? rail;
}

/**
 * The rails an account stored with `stored` is reached on. A deprecated rail keeps the meaning it had when
 * the account was accepted (spec: Rail values — "WIRE (use SWIFT), CRYPTO (use the blockchain name)"): WIRE
 * is SWIFT and CRYPTO is every blockchain, at every date, so an account registered with them while they were
 * accepted stays payable. "DOMESTIC WIRE" (spec: Account, rails) is DOMESTIC_WIRE; LOCAL is resolved by the
 * bank's country. Duplicates are dropped, the order kept.
 */
export function reachRails(stored: readonly string[], bankCountry: string | undefined): string[] {
  const out: string[] = [];
  for (const rail of stored) {
    const mapped =
      rail === 'DOMESTIC WIRE'
        ? ['DOMESTIC_WIRE']
        : rail === 'WIRE'
          ? ['SWIFT']
          : rail === 'CRYPTO'
            ? [...BLOCKCHAIN_RAILS]
            : [resolveLocalRail(rail, bankCountry)];
    for (const r of mapped) if (!out.includes(r)) out.push(r);
  }
  return out;
}

/**
 * The rails of an account body as the service stores them (spec: Account, rails — "US accounts: ACH,
 * ACH_SAME_DAY, DOMESTIC WIRE (default all three); BR accounts: TED, PIX (default TED)"): the `rails` sent,
 * else the default of the bank's country, else none ([] = reached on any rail a corridor serves).
 */
export function storedAccountRails(body: Record<string, unknown>, bankCountry: string | undefined): string[] {
  if (Array.isArray(body.rails)) return body.rails.filter((r): r is string => typeof r === 'string');
  if (body.type !== 'EXTERNAL_BANK_ACCOUNT' && body.type !== 'VIRTUAL_BANK_ACCOUNT') return [];
  return [...(DEFAULT_ACCOUNT_RAILS[bankCountry ?? ''] ?? [])];
}
