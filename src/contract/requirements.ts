import { z } from 'zod';
import { CUSTOMER_TYPES, type CustomerType } from './enums';
import { ContractParseError, zodIssuesToViolations } from './errors';

// spec: Account requirement item.
export const AccountRequirementSchema = z.looseObject({
  variableName: z.string().min(1),
  rails: z.array(z.string()),
  accountHolderTypes: z.array(z.enum(CUSTOMER_TYPES)),
  regex: z.string(),
  example: z.string(),
  enum: z.array(z.string()),
});
export type AccountRequirement = z.infer<typeof AccountRequirementSchema>;
export const AccountRequirementsSchema = z.array(AccountRequirementSchema);

const LegacyItemSchema = z.looseObject({
  variableName: z.string().min(1),
  regex: z.string(),
  example: z.string(),
  enum: z.array(z.string()),
});
// spec: Account requirement item — "Legacy shape: object with INDIVIDUAL and BUSINESS arrays".
export const LegacyAccountRequirementsSchema = z.looseObject({
  INDIVIDUAL: z.array(LegacyItemSchema),
  BUSINESS: z.array(LegacyItemSchema),
});
export type LegacyAccountRequirements = z.infer<typeof LegacyAccountRequirementsSchema>;

/**
 * From 2026-07-31 the response no longer includes these (spec: Account requirement item); the sandbox
 * drops them from that date (rule REQUIREMENTS_RESPONSE_UNIFORM).
 */
export const REQUIREMENTS_REMOVED_FROM_2026_07_31 = [
  'accountHolder.firstName',
  'accountHolder.lastName',
  'accountHolder.businessName',
  'accountType',
  'bank.countryCode',
] as const;

/**
 * Current array or legacy object → current items. Legacy items are merged by variableName; their
 * accountHolderTypes say which arrays they came from; rails is [] ("every rail", docs/spec-gaps.md).
 */
export function normalizeRequirements(raw: unknown): AccountRequirement[] {
  const current = AccountRequirementsSchema.safeParse(raw);
  if (current.success) return current.data;
  if (Array.isArray(raw))
    throw new ContractParseError('account requirements', zodIssuesToViolations(current.error));
  const legacy = LegacyAccountRequirementsSchema.safeParse(raw);
  if (!legacy.success)
    throw new ContractParseError('legacy account requirements', zodIssuesToViolations(legacy.error));
  const byName = new Map<string, AccountRequirement>();
  for (const holderType of CUSTOMER_TYPES) {
    for (const item of legacy.data[holderType as CustomerType]) {
      const existing = byName.get(item.variableName);
      if (existing) existing.accountHolderTypes.push(holderType);
      else byName.set(item.variableName, { ...item, rails: [], accountHolderTypes: [holderType] });
    }
  }
  return [...byName.values()];
}
