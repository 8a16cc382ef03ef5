// Checks an account body against GET /accounts/requirements items (spec: Account requirement item):
// every applicable field present, matching its regex and, when the item has one, its enum. Every mismatch
// is reported, not the first only.
import type { AccountRequirement, Violation } from '../../src/contract';

function valueAt(body: unknown, dotted: string): unknown {
  let cur: unknown = body;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function applies(
  item: AccountRequirement,
  rails: readonly string[],
  holderType: string | undefined,
): boolean {
  const railOk = item.rails.length === 0 || rails.length === 0 || item.rails.some((r) => rails.includes(r));
  // without a holder type, only the items every holder type needs
  const holderOk =
    item.accountHolderTypes.length === 0 ||
    (holderType
      ? item.accountHolderTypes.includes(holderType as never)
      : item.accountHolderTypes.length >= 2);
  return railOk && holderOk;
}

export function requirementViolations(
  body: Record<string, unknown>,
  requirements: readonly AccountRequirement[],
  holderType?: string,
): Violation[] {
  const rails = Array.isArray(body.rails) ? body.rails.filter((r): r is string => typeof r === 'string') : [];
  const violations: Violation[] = [];
  for (const item of requirements) {
    if (!applies(item, rails, holderType)) continue;
    const value = valueAt(body, item.variableName);
    if (value === undefined || value === null || value === '') {
      violations.push({
        path: item.variableName,
        rule: 'REQUIRED_BY_REQUIREMENTS',
        message: `${item.variableName} is required${item.example ? `, e.g. ${item.example}` : ''}`,
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
