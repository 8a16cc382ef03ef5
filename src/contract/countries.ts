// Country risk lists keyed by ISO 3166-1 alpha-2 (Kosovo: the user-assigned code XK).
// spec: Customer, "Country risk lists (changes effective July 31, 2026 unless noted)".
// The spec only shows the countries that move; the rest of the base lists is not shown
// (docs/spec-gaps.md, Contract). Extra countries can be passed to countryRisk via `extra`.

export type CountryRisk = 'PROHIBITED' | 'HIGH_RISK' | 'STANDARD';

/** Date the list changes take effect (UTC midnight). */
export const COUNTRY_LISTS_EFFECTIVE = '2026-07-31';

/** Lebanon and West Bank: high risk → prohibited "immediately" = for every asOf (no start date). */
export const PROHIBITED_IMMEDIATELY: Readonly<Record<string, string>> = {
  LB: 'Lebanon',
  PS: 'West Bank', // ISO 3166-1 has no code for the West Bank alone; PS (Palestine) covers it.
};

/** Prohibited until 2026-07-31, high risk from that date. */
export const PROHIBITED_TO_HIGH_RISK: Readonly<Record<string, string>> = {
  CF: 'Central African Republic',
  GN: 'Guinea',
  ML: 'Mali',
};

/** Added to high risk on 2026-07-31 (48 names in the spec). */
export const ADDED_TO_HIGH_RISK: Readonly<Record<string, string>> = {
  AX: 'Åland Islands',
  AQ: 'Antarctica',
  BJ: 'Benin',
  BO: 'Bolivia',
  BV: 'Bouvet Island',
  IO: 'British Indian Ocean Territory',
  BG: 'Bulgaria',
  CV: 'Cabo Verde',
  TD: 'Chad',
  CX: 'Christmas Island',
  CC: 'Cocos (Keeling) Islands',
  KM: 'Comoros',
  CK: 'Cook Islands',
  DJ: 'Djibouti',
  GQ: 'Equatorial Guinea',
  SZ: 'Eswatini',
  FK: 'Falkland Islands',
  FO: 'Faroe Islands',
  TF: 'French Southern Territories',
  GA: 'Gabon',
  HM: 'Heard Island and McDonald Islands',
  KI: 'Kiribati',
  KW: 'Kuwait',
  KG: 'Kyrgyzstan',
  LS: 'Lesotho',
  MV: 'Maldives',
  MR: 'Mauritania',
  MS: 'Montserrat',
  NF: 'Norfolk Island',
  PW: 'Palau',
  PA: 'Panama',
  PG: 'Papua New Guinea',
  PN: 'Pitcairn',
  SH: 'Saint Helena Ascension and Tristan da Cunha',
  KN: 'Saint Kitts and Nevis',
  ST: 'Sao Tome and Principe',
  SL: 'Sierra Leone',
  GS: 'South Georgia and the South Sandwich Islands',
  LK: 'Sri Lanka',
  SJ: 'Svalbard and Jan Mayen',
  TJ: 'Tajikistan',
  TH: 'Thailand',
  TK: 'Tokelau',
  TM: 'Turkmenistan',
  TV: 'Tuvalu',
  AE: 'United Arab Emirates',
  UM: 'United States Minor Outlying Islands',
  VG: 'Virgin Islands (British)',
};

/** High risk until 2026-07-31, standard from that date. */
export const REMOVED_FROM_HIGH_RISK: Readonly<Record<string, string>> = {
  AL: 'Albania',
  KY: 'Cayman Islands',
  JO: 'Jordan',
  XK: 'Kosovo',
  MA: 'Morocco',
  MK: 'North Macedonia',
  QA: 'Qatar',
};

export interface CountryListExtras {
  /** Countries prohibited at every date (the rest of the base list, when known). */
  prohibited?: readonly string[];
  /** Countries high risk at every date. */
  highRisk?: readonly string[];
}

const EFFECTIVE_MS = Date.parse(`${COUNTRY_LISTS_EFFECTIVE}T00:00:00Z`);

/** Risk class of a country at `asOf`. Unknown codes are STANDARD. */
export function countryRisk(countryCode: string, asOf: Date, extra: CountryListExtras = {}): CountryRisk {
  const code = countryCode.toUpperCase();
  const changed = asOf.getTime() >= EFFECTIVE_MS;
  if (code in PROHIBITED_IMMEDIATELY || extra.prohibited?.includes(code)) return 'PROHIBITED';
  if (code in PROHIBITED_TO_HIGH_RISK) return changed ? 'HIGH_RISK' : 'PROHIBITED';
  if (code in REMOVED_FROM_HIGH_RISK) return changed ? 'STANDARD' : 'HIGH_RISK';
  if (code in ADDED_TO_HIGH_RISK) return changed ? 'HIGH_RISK' : 'STANDARD';
  if (extra.highRisk?.includes(code)) return 'HIGH_RISK';
  return 'STANDARD';
}
