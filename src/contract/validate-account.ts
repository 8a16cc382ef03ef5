import { CreateAccountRequestSchema } from './account';
import { RAILS, isRail } from './enums';
import type { Violation } from './errors';
import { isRecord } from './json';
import { UNDATED_RULES, Violations, get, isPresent, notAnObject, str } from './validation';

/** "DOMESTIC WIRE" (with a space) in spec Account, rails, is read as the rail DOMESTIC_WIRE. */
function canonicalRail(rail: string): string {
  return rail === 'DOMESTIC WIRE' ? 'DOMESTIC_WIRE' : rail;
}

/** Every violation of a POST /accounts body at asOf (spec: Account, rules 1–5). [] = valid. */
export function validateAccount(body: unknown, asOf: Date): Violation[] {
  if (!isRecord(body)) return notAnObject('account');
  const v = new Violations(asOf);
  // The schema first (zod: this runs at the edges and in the validateAccountBody activity, never in a workflow)
  v.schema(CreateAccountRequestSchema.safeParse(body));

  // spec: Account rule 5 / Versioning Mar 4 2026 — paymentAccountHolder removed from use.
  if (body.paymentAccountHolder !== undefined) {
    v.dated(
      'PAYMENT_ACCOUNT_HOLDER_REMOVED',
      'paymentAccountHolder',
      'send the holder as accountHolder instead of paymentAccountHolder',
    );
  }
  // spec: Account rule 4.
  if (get(body, 'accountHolder.address.stateOrProvince') !== undefined) {
    v.dated(
      'STATE_OR_PROVINCE_REMOVED',
      'accountHolder.address.stateOrProvince',
      'rename stateOrProvince to stateRegionOrProvince',
    );
  }
  // spec: Account, liquidationAccountId — for a virtual bank account.
  if (body.liquidationAccountId !== undefined && body.type !== 'VIRTUAL_BANK_ACCOUNT') {
    v.add(
      'liquidationAccountId',
      UNDATED_RULES.LIQUIDATION_ACCOUNT_VIRTUAL_ONLY,
      'liquidationAccountId applies to VIRTUAL_BANK_ACCOUNT only: remove it',
    );
  }
  if (body.liquidationInformation !== undefined) {
    v.dated(
      'LIQUIDATION_INFORMATION_REMOVED',
      'liquidationInformation',
      'use liquidationAccountId instead of liquidationInformation',
    );
  }
  // spec: Account, currencyCode — required for external digital asset wallets (date postponed).
  if (body.type === 'EXTERNAL_DIGITAL_ASSET_WALLET' && !isPresent(body.currencyCode)) {
    v.dated('WALLET_CURRENCY_CODE', 'currencyCode', 'add currencyCode: one wallet address per currency');
  }

  const rails = Array.isArray(body.rails) ? body.rails.filter((r): r is string => typeof r === 'string') : [];
  rails.forEach((raw, i) => {
    const rail = canonicalRail(raw);
    if (rail === 'CRYPTO' && v.inForce('CRYPTO_RAIL_REMOVED')) {
      v.add(
        `rails[${i}]`,
        'CRYPTO_RAIL_REMOVED',
        'CRYPTO is no longer a rail: use the blockchain name (e.g. POLYGON)',
      );
    } else if (!isRail(rail)) {
      v.dated(
        'RAILS_ENUM_ENFORCED',
        `rails[${i}]`,
        `${raw} is not an accepted rail: use one of ${RAILS.join(', ')}`,
      );
    }
  });

  if (body.type === 'EXTERNAL_BANK_ACCOUNT') checkExternalBank(v, body, rails.map(canonicalRail));
  return v.list;
}

// spec: Account rule 3 — all from 2026-07-31.
function checkExternalBank(v: Violations, body: Record<string, unknown>, rails: string[]): void {
  const currency = str(body.currencyCode)?.toUpperCase();
  const bank = isRecord(body.bank) ? body.bank : {};
  const need = (rule: Parameters<Violations['dated']>[0], field: string, why: string) => {
    if (!isPresent(bank[field])) v.dated(rule, `bank.${field}`, `add bank.${field}: ${why}`);
  };
  if (
    (currency === 'EUR' || currency === 'GBP') &&
    !isPresent(get(body, 'accountHolder.address.postalCode'))
  ) {
    v.dated(
      'EUR_GBP_POSTAL_CODE',
      'accountHolder.address.postalCode',
      `add accountHolder.address.postalCode: ${currency} accounts need the holder's postal code`,
    );
  }
  if (currency === 'JPY') {
    need('JPY_BRANCH_CODE', 'bankCode', 'JPY accounts give the bank code and the branch code separately');
    need('JPY_BRANCH_CODE', 'branchCode', 'JPY accounts give the bank code and the branch code separately');
  }
  if (currency === 'CAD') {
    need(
      'CAD_BANK_CODE_AND_TRANSIT',
      'bankCode',
      'CAD accounts give the bank code and the transit number separately',
    );
    need(
      'CAD_BANK_CODE_AND_TRANSIT',
      'transitNumber',
      'CAD accounts give the bank code and the transit number separately',
    );
  }
  const bankCountry = str(bank.countryCode)?.toUpperCase();
  if (bankCountry === 'HK' || (bankCountry === undefined && currency === 'HKD')) {
    need('HK_SWIFT_CODE', 'bicSwift', "Hong Kong accounts give the bank's SWIFT code instead of a bank name");
  }
  if (rails.includes('SWIFT') && get(body, 'accountHolder.type') === 'INDIVIDUAL') {
    need(
      'SWIFT_INDIVIDUAL_ROUTING_NUMBER',
      'routingNumber',
      "a SWIFT payment to an individual needs the US correspondent bank's ABA routing number",
    );
  }
}
