import { type AccountRequirement, isInForce, REQUIREMENTS_REMOVED_FROM_2026_07_31 } from '../../contract';

/**
 * Account requirements per bank country and currency (spec: Account requirement item; the table itself is
 * not shown: ours covers the sandbox's corridors). IBAN patterns are country-specific, as the spec says.
 */
interface Item {
  variableName: string;
  regex: string;
  example: string;
  rails: string[];
  accountHolderTypes?: AccountRequirement['accountHolderTypes'];
  enum?: string[];
}

const BOTH: AccountRequirement['accountHolderTypes'] = ['INDIVIDUAL', 'BUSINESS'];
const IBAN: Record<string, { regex: string; example: string }> = {
  DE: { regex: '^DE\\d{20}$', example: 'DE89370400440532013000' },
  FR: { regex: '^FR\\d{12}[A-Z0-9]{11}\\d{2}$', example: 'FR1420041010050500013M02606' },
  ES: { regex: '^ES\\d{22}$', example: 'ES9121000418450200051332' },
  NL: { regex: '^NL\\d{2}[A-Z]{4}\\d{10}$', example: 'NL91ABNA0417164300' },
  IT: { regex: '^IT\\d{2}[A-Z]\\d{10}[A-Z0-9]{12}$', example: 'IT60X0542811101000000123456' },
};
const BIC = {
  variableName: 'bank.bicSwift',
  regex: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$',
  example: 'DEUTDEFF',
  rails: [] as string[],
};
const POSTAL = {
  variableName: 'accountHolder.address.postalCode',
  regex: '^.{2,12}$',
  example: '10115',
  rails: [] as string[],
};

/** The rules of spec Account rule 3 in force at the instant asked about: what changes a pair's items. */
interface InForce {
  /** From 2026-07-31: JPY splits bankCode into bankCode and branchCode; Hong Kong takes the bank's SWIFT code. */
  jul31: boolean;
  /** EUR and GBP external accounts require the holder's postal code from 2026-07-31. */
  postal: Item[];
  /** CAD's split form (bank.bankCode beside a 5-digit transitNumber) is required. */
  cadSplit: boolean;
}

/** The items per bank country/currency pair; EUR in the IBAN countries is added by table(). */
const BY_PAIR: Record<string, (d: InForce) => Item[]> = {
  'US/USD': () => [
    {
      variableName: 'bank.accountNumber',
      regex: '^\\d{4,17}$',
      example: '123456789012',
      rails: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'],
    },
    {
      variableName: 'bank.routingNumber',
      regex: '^\\d{9}$',
      example: '021000021',
      rails: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'],
    },
    {
      variableName: 'accountHolder.address.stateRegionOrProvince',
      regex: '^[A-Z]{2}$',
      example: 'NY',
      rails: [],
    },
  ],
  'GB/GBP': (d) => [
    { variableName: 'bank.accountNumber', regex: '^\\d{8}$', example: '31926819', rails: ['LOCAL'] },
    { variableName: 'bank.sortCode', regex: '^\\d{6}$', example: '601613', rails: ['LOCAL'] },
    {
      variableName: 'bank.iban',
      regex: '^GB\\d{2}[A-Z]{4}\\d{14}$',
      example: 'GB29NWBK60161331926819',
      rails: ['SWIFT'],
    },
    { ...BIC, rails: ['SWIFT'] },
    ...d.postal,
  ],
  'BR/BRL': () => [
    { variableName: 'bank.pixCode', regex: '^.{1,77}$', example: 'joao@example.com.br', rails: ['PIX'] },
    { variableName: 'bank.accountNumber', regex: '^\\d{5,12}$', example: '123456789', rails: ['TED'] },
    { variableName: 'bank.bankCode', regex: '^\\d{3}$', example: '341', rails: ['TED'] },
    { variableName: 'bank.branchCode', regex: '^\\d{4}$', example: '0001', rails: ['TED'] },
  ],
  'IN/INR': () => [
    {
      variableName: 'bank.accountNumber',
      regex: '^\\d{9,18}$',
      example: '50100012345678',
      rails: ['IMPS', 'IMPS_WITH_FIRC'],
    },
    {
      variableName: 'bank.ifscCode',
      regex: '^[A-Z]{4}0[A-Z0-9]{6}$',
      example: 'HDFC0000123',
      rails: ['IMPS', 'IMPS_WITH_FIRC'],
    },
  ],
  'MX/MXN': () => [
    {
      variableName: 'bank.clabeNumber',
      regex: '^\\d{18}$',
      example: '032180000118359719',
      rails: ['LOCAL', 'SWIFT'],
    },
  ],
  'PH/PHP': () => [
    {
      variableName: 'bank.accountNumber',
      regex: '^\\d{10,16}$',
      example: '001234567890',
      rails: ['LOCAL', 'SWIFT'],
    },
    { ...BIC, example: 'BOPIPHMM', rails: ['LOCAL', 'SWIFT'] },
  ],
  'JP/JPY': (d) => [
    { variableName: 'bank.accountNumber', regex: '^\\d{7}$', example: '1234567', rails: ['LOCAL'] },
    // spec: Account rule 3 — from 2026-07-31 JPY splits bankCode into bankCode and branchCode.
    ...(d.jul31
      ? [
          { variableName: 'bank.bankCode', regex: '^\\d{4}$', example: '0001', rails: ['LOCAL'] },
          { variableName: 'bank.branchCode', regex: '^\\d{3}$', example: '001', rails: ['LOCAL'] },
        ]
      : [{ variableName: 'bank.bankCode', regex: '^\\d{7}$', example: '0001001', rails: ['LOCAL'] }]),
  ],
  'CA/CAD': (d) => [
    { variableName: 'bank.accountNumber', regex: '^\\d{7,12}$', example: '1234567', rails: ['LOCAL'] },
    // spec: Account rule 3 — CAD splits transitNumber into bankCode and transitNumber (both usable now,
    // the split form required from 2026-07-31). Every item listed is required, so before that date only
    // transitNumber is listed, in either form: 8 digits (transit + institution, the old form) or 5 digits
    // (the split form, with bank.bankCode beside it). docs/spec-gaps.md, Sandbox.
    ...(d.cadSplit
      ? [
          { variableName: 'bank.transitNumber', regex: '^\\d{5}$', example: '00012', rails: ['LOCAL'] },
          { variableName: 'bank.bankCode', regex: '^\\d{3}$', example: '004', rails: ['LOCAL'] },
        ]
      : [
          {
            variableName: 'bank.transitNumber',
            regex: '^(\\d{5}|\\d{8})$',
            example: '00012004',
            rails: ['LOCAL'],
          },
        ]),
  ],
  'HK/HKD': (d) => [
    {
      variableName: 'bank.accountNumber',
      regex: '^\\d{6,12}$',
      example: '123456789',
      rails: ['LOCAL', 'SWIFT'],
    },
    // spec: Account rule 3 — Hong Kong takes the bank's SWIFT code instead of a bank name choice.
    d.jul31
      ? { ...BIC, example: 'HSBCHKHH', rails: ['LOCAL', 'SWIFT'] }
      : {
          variableName: 'bank.name',
          regex: '^.+$',
          example: 'HSBC',
          rails: ['LOCAL', 'SWIFT'],
          enum: ['HSBC', 'Bank of China (Hong Kong)', 'Hang Seng Bank', 'Standard Chartered'],
        },
  ],
  'AU/AUD': () => [
    { variableName: 'bank.accountNumber', regex: '^\\d{6,10}$', example: '123456789', rails: ['LOCAL'] },
    { variableName: 'bank.bsbNumber', regex: '^\\d{6}$', example: '062000', rails: ['LOCAL'] },
  ],
};

function table(country: string, currency: string, asOf: Date): Item[] | null {
  const inForce: InForce = {
    jul31: isInForce('JPY_BRANCH_CODE', asOf),
    // spec: Account rule 3 — EUR and GBP external accounts require the holder's postal code from 2026-07-31.
    postal: isInForce('EUR_GBP_POSTAL_CODE', asOf) ? [POSTAL] : [],
    cadSplit: isInForce('CAD_BANK_CODE_AND_TRANSIT', asOf),
  };
  const items = BY_PAIR[`${country}/${currency}`];
  if (items) return items(inForce);
  if (currency === 'EUR' && IBAN[country])
    return [
      { variableName: 'bank.iban', ...IBAN[country], rails: ['LOCAL', 'SWIFT'] },
      { ...BIC, rails: ['SWIFT'] },
      ...inForce.postal,
    ];
  return null;
}

/** The items of GET /v1/accounts/requirements at asOf; null when the country/currency pair is not served. */
export function accountRequirements(
  country: string,
  currency: string,
  asOf: Date,
): AccountRequirement[] | null {
  const items = table(country, currency, asOf);
  if (!items) return null;
  const out: AccountRequirement[] = items.map((i) => ({
    ...i,
    accountHolderTypes: i.accountHolderTypes ?? BOTH,
    enum: i.enum ?? [],
  }));
  // spec: Account rule 3 — a SWIFT payment to an individual needs the correspondent ABA routing number.
  if (
    isInForce('SWIFT_INDIVIDUAL_ROUTING_NUMBER', asOf) &&
    out.some((i) => i.rails.includes('SWIFT')) &&
    country !== 'US'
  ) {
    out.push({
      variableName: 'bank.routingNumber',
      regex: '^\\d{9}$',
      example: '021000021',
      rails: ['SWIFT'],
      accountHolderTypes: ['INDIVIDUAL'],
      enum: [],
    });
  }
  // spec: Account requirement item — before 2026-07-31 the response also lists these five.
  if (!isInForce('REQUIREMENTS_RESPONSE_UNIFORM', asOf)) {
    const holder: Record<string, AccountRequirement['accountHolderTypes']> = {
      'accountHolder.firstName': ['INDIVIDUAL'],
      'accountHolder.lastName': ['INDIVIDUAL'],
      'accountHolder.businessName': ['BUSINESS'],
    };
    for (const name of REQUIREMENTS_REMOVED_FROM_2026_07_31) {
      out.push({
        variableName: name,
        rails: [],
        accountHolderTypes: holder[name] ?? BOTH,
        regex: name === 'bank.countryCode' ? '^[A-Z]{2}$' : '^.+$',
        example: name === 'bank.countryCode' ? country : name === 'accountType' ? 'CHECKING' : 'Jane',
        enum: name === 'accountType' ? ['CHECKING', 'SAVINGS'] : [],
      });
    }
  }
  return out;
}

/** Legacy shape (spec: Account requirement item, legacy; ended 2025-09-30). */
export function legacyRequirements(
  country: string,
  currency: string,
  asOf: Date,
): Record<string, unknown> | null {
  const items = accountRequirements(country, currency, asOf);
  if (!items) return null;
  const pick = (t: 'INDIVIDUAL' | 'BUSINESS') =>
    items
      .filter((i) => i.accountHolderTypes.includes(t))
      .map(({ variableName, regex, example, enum: e }) => ({ variableName, regex, example, enum: e }));
  return { INDIVIDUAL: pick('INDIVIDUAL'), BUSINESS: pick('BUSINESS') };
}
