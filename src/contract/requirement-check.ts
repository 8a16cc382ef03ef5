// An account body checked against the items of GET /accounts/requirements (spec: Account requirement item;
// What the service does 4: "which fields an account needs for a given rail"). Pure and zod-free: the sandbox's
// POST /accounts and the registerAccount workflow run this same function, so a body one refuses the other does.
import { reachRails, storedAccountRails } from './account-rails';
import type { AccountRequirement } from './requirements';
import type { SchemaViolation as Violation } from './violations';

function valueAt(body: unknown, dotted: string): unknown {
  let cur: unknown = body;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The bank's country of an account body: bank.countryCode, else the holder's country (the requirements query). */
export function requirementsCountryOf(body: Record<string, unknown>): string | undefined {
  const bank = body.bank as { countryCode?: unknown } | undefined;
  if (typeof bank?.countryCode === 'string') return bank.countryCode;
  const holder = body.accountHolder as { address?: { countryCode?: unknown } } | undefined;
  return typeof holder?.address?.countryCode === 'string' ? holder.address.countryCode : undefined;
}

/**
 * An item applies when its rails meet the rails the account is reached on (an item with no rails applies to
 * every rail; an account reached on no listed rail — none sent, no country default — can be paid on any rail,
 * so every item applies) and to the holder type (without one, only the items every holder type needs).
 */
function applies(
  item: AccountRequirement,
  rails: readonly string[],
  country: string | undefined,
  holderType: string | undefined,
): boolean {
  const itemRails = reachRails(item.rails, country);
  const railOk = itemRails.length === 0 || rails.length === 0 || itemRails.some((r) => rails.includes(r));
  const holderOk =
    item.accountHolderTypes.length === 0 ||
    (holderType
      ? item.accountHolderTypes.includes(holderType as never)
      : item.accountHolderTypes.length >= 2);
  return railOk && holderOk;
}

/**
 * The body as the service reads it: the legacy names still accepted before their removal (2026-03-04, refused
 * from then by validateAccount) stand for their replacements — paymentAccountHolder for accountHolder
 * (Account rule 5), accountHolder.address.stateOrProvince for stateRegionOrProvince (Account rule 4).
 */
function withCurrentNames(body: Record<string, unknown>): Record<string, unknown> {
  const holder = (body.accountHolder ?? body.paymentAccountHolder) as Record<string, unknown> | undefined;
  if (holder === undefined || holder === null || typeof holder !== 'object') return body;
  const address = holder.address as Record<string, unknown> | undefined;
  const state =
    address && typeof address === 'object' && address.stateRegionOrProvince === undefined
      ? address.stateOrProvince
      : undefined;
  return {
    ...body,
    accountHolder:
      state === undefined ? holder : { ...holder, address: { ...address, stateRegionOrProvince: state } },
  };
}

/**
 * Every requirement item the body does not meet: absent (`REQUIRED_BY_REQUIREMENTS`), not matching `regex`
 * (`PATTERN_MISMATCH`) or outside a non-empty `enum` (`NOT_IN_ENUM`). The rails are the body's `rails` (deprecated
 * ones read as `reachRails` does), else its country's default. `holderType` defaults to accountHolder.type.
 * Messages never echo the account's values (account numbers are personal data).
 */
export function requirementViolations(
  sent: Record<string, unknown>,
  requirements: readonly AccountRequirement[],
  holderType?: string,
): Violation[] {
  const body = withCurrentNames(sent);
  const country = requirementsCountryOf(body);
  const rails = reachRails(storedAccountRails(body, country), country);
  const holder = holderType ?? (valueAt(body, 'accountHolder.type') as string | undefined);
  const violations: Violation[] = [];
  for (const item of requirements) {
    if (!applies(item, rails, country, typeof holder === 'string' ? holder : undefined)) continue;
    const value = valueAt(body, item.variableName);
    if (value === undefined || value === null || value === '') {
      violations.push({
        path: item.variableName,
        rule: 'REQUIRED_BY_REQUIREMENTS',
        message: `${item.variableName} is required${item.example ? `, e.g. ${item.example}` : ''} (GET /accounts/requirements)`,
      });
      continue;
    }
    const text = String(value);
    if (item.regex) {
      let pattern: RegExp | null = null;
      try {
        pattern = new RegExp(item.regex);
      } catch {
        pattern = null; // a pattern we cannot compile is the service's to enforce
      }
      if (pattern && !pattern.test(text)) {
        violations.push({
          path: item.variableName,
          rule: 'PATTERN_MISMATCH',
          message: `${item.variableName} does not match ${item.regex}${item.example ? ` (e.g. ${item.example})` : ''}`,
        });
      }
    }
    if (item.enum.length > 0 && !item.enum.includes(text)) {
      violations.push({
        path: item.variableName,
        rule: 'NOT_IN_ENUM',
        message: `${item.variableName} must be one of ${item.enum.join(', ')}`,
      });
    }
  }
  return violations;
}
