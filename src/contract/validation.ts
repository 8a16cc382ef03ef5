import type { Violation } from './errors';
import { isRecord } from './json';
import { issuesToViolations, type SchemaIssue } from './violations';
import { type RuleId, isInForce } from './rules';

// Shared helpers of validate-customer.ts, validate-account.ts and validate-payment.ts. Zod-free: workflows
// run validatePaymentRequest (docs/performance.md: no zod in the workflow bundle).

/** Rules that hold at every date (not rows of DATED_RULES). */
export const UNDATED_RULES = {
  SCHEMA: 'SCHEMA',
  NOT_AN_OBJECT: 'NOT_AN_OBJECT',
  TEAM_ALIAS_EMAIL: 'TEAM_ALIAS_EMAIL',
  PROHIBITED_COUNTRY: 'PROHIBITED_COUNTRY',
  CRYPTO_NEEDS_CHAIN: 'CRYPTO_NEEDS_CHAIN',
  LIQUIDATION_ACCOUNT_VIRTUAL_ONLY: 'LIQUIDATION_ACCOUNT_VIRTUAL_ONLY',
} as const;

export class Violations {
  readonly list: Violation[] = [];
  constructor(readonly asOf: Date) {}

  add(path: string, rule: string, message: string): void {
    this.list.push({ path, rule, message });
  }

  /** Adds the violation only when the dated rule is in force at asOf. */
  dated(rule: RuleId, path: string, message: string): void {
    if (isInForce(rule, this.asOf)) this.add(path, rule, message);
  }

  inForce(rule: RuleId): boolean {
    return isInForce(rule, this.asOf);
  }

  /** The issues of a zod `safeParse`, as SCHEMA violations. */
  schema(result: { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } }): void {
    if (!result.success) this.list.push(...issuesToViolations(result.error.issues));
  }
}

export function notAnObject(what: string): Violation[] {
  return [{ path: '', rule: UNDATED_RULES.NOT_AN_OBJECT, message: `send the ${what} as a JSON object` }];
}

export function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Present and not an empty/blank string (null and undefined are missing). */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return true;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
