// Checks an account body against GET /accounts/requirements and reports every mismatch.
// spec: Account requirement item (variableName dotted path, rails, accountHolderTypes, regex, enum).
// Which requirement items are mandatory is not shown: every item that applies to the account's rails and
// holder type is treated as required (docs/spec-gaps.md, "Provider client").
import { type AccountRequirement, type CustomerType } from '../contract';

export interface RequirementMismatch {
  /** The requirement's variableName, e.g. bank.accountNumber, or `rails` / `accountHolder.type`. */
  path: string;
  rule: 'required' | 'type' | 'regex' | 'enum' | 'rails' | 'accountHolderType' | 'invalidRequirement';
  /** Says what to do. Never contains the account's value (account numbers are personal data). */
  message: string;
}

export interface RequirementCheckOptions {
  /** The rail the account will be used on; default: the account's `rails` (or every rail when it has none). */
  rail?: string;
  /** Default: account.accountHolder.type. */
  accountHolderType?: CustomerType;
}

export function checkAccountAgainstRequirements(
  account: unknown,
  requirements: readonly AccountRequirement[],
  options: RequirementCheckOptions = {},
): RequirementMismatch[] {
  const mismatches: RequirementMismatch[] = [];
  const accountRails = readRails(account);
  if (options.rail !== undefined && accountRails !== null && !accountRails.includes(options.rail)) {
    mismatches.push({
      path: 'rails',
      rule: 'rails',
      message: `the account's rails do not include ${options.rail}: add it to rails or pick one of ${accountRails.join(', ')}`,
    });
  }
  const railsInUse = options.rail !== undefined ? [options.rail] : accountRails;
  const holderType = options.accountHolderType ?? readHolderType(account);

  const needingHolderType: string[] = [];
  for (const req of requirements) {
    if (!appliesToRails(req, railsInUse)) continue;
    const typeSpecific = req.accountHolderTypes.length > 0 && req.accountHolderTypes.length < 2;
    if (holderType === undefined) {
      if (typeSpecific) {
        needingHolderType.push(req.variableName);
        continue;
      }
    } else if (req.accountHolderTypes.length > 0 && !req.accountHolderTypes.includes(holderType)) {
      continue;
    }
    mismatches.push(...checkOne(account, req));
  }
  if (needingHolderType.length > 0) {
    mismatches.push({
      path: 'accountHolder.type',
      rule: 'accountHolderType',
      message: `set accountHolder.type (INDIVIDUAL or BUSINESS) to check ${needingHolderType.join(', ')}`,
    });
  }
  return mismatches;
}

function checkOne(account: unknown, req: AccountRequirement): RequirementMismatch[] {
  const path = req.variableName;
  const example = req.example ? ` (example: ${req.example})` : '';
  const value = readPath(account, path);
  if (value === undefined || value === null || value === '') {
    return [
      {
        path,
        rule: 'required',
        message: `${path} is required for this rail and holder type: add it${example}`,
      },
    ];
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return [{ path, rule: 'type', message: `${path} must be a string${example}` }];
  }
  const text = String(value);
  const out: RequirementMismatch[] = [];
  if (req.regex !== '') {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(req.regex);
    } catch {
      out.push({
        path,
        rule: 'invalidRequirement',
        message: `the service's pattern for ${path} is not a valid regular expression; it was not checked`,
      });
    }
    if (pattern && !pattern.test(text)) {
      out.push({
        path,
        rule: 'regex',
        message: `${path} does not have the required format ${req.regex}${example}`,
      });
    }
  }
  if (req.enum.length > 0 && !req.enum.includes(text)) {
    out.push({ path, rule: 'enum', message: `${path} must be one of ${req.enum.join(', ')}` });
  }
  return out;
}

/** An item with no rails applies to every rail; an account without rails uses the defaults (all). */
function appliesToRails(req: AccountRequirement, railsInUse: readonly string[] | null): boolean {
  if (req.rails.length === 0 || railsInUse === null) return true;
  return req.rails.some((r) => railsInUse.includes(r));
}

function readRails(account: unknown): string[] | null {
  const rails = readPath(account, 'rails');
  return Array.isArray(rails) && rails.length > 0
    ? rails.filter((r): r is string => typeof r === 'string')
    : null;
}

function readHolderType(account: unknown): CustomerType | undefined {
  const t = readPath(account, 'accountHolder.type');
  return t === 'INDIVIDUAL' || t === 'BUSINESS' ? t : undefined;
}

/** Dotted path (`bank.accountNumber`) into a plain object; own properties only. */
export function readPath(root: unknown, dotted: string): unknown {
  let node: unknown = root;
  for (const key of dotted.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key))
      return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
