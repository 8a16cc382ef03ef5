import { type CUSTOMER_CAPABILITIES, isStablecoin } from './enums';

export type CustomerCapability = (typeof CUSTOMER_CAPABILITIES)[number];

// spec: Customer, capabilities — "array of USD, OTHER; optional; omitting it or sending both gives access
// to all corridors; USD also covers EUR onramps". Our reading (docs/spec-gaps.md, Contract):
//  - a USD corridor is one whose source or destination currency is the fiat USD (stablecoins are not USD);
//  - an EUR onramp is EUR (fiat) → a stablecoin;
//  - USD covers the USD corridors and the EUR onramps; OTHER covers every corridor that is not a USD
//    corridor (EUR onramps included); omitted, [] or both → every corridor.

/** True when the corridor source → destination currency is a USD corridor. */
export function isUsdCorridor(sourceCurrency: string, destinationCurrency: string): boolean {
  return sourceCurrency === 'USD' || destinationCurrency === 'USD';
}

/** True when the corridor is an EUR onramp (EUR → a stablecoin). */
export function isEurOnramp(sourceCurrency: string, destinationCurrency: string): boolean {
  return sourceCurrency === 'EUR' && isStablecoin(destinationCurrency);
}

/** Whether a customer with these capabilities may use the corridor source → destination currency. */
export function capabilitiesAllowCorridor(
  capabilities: readonly (CustomerCapability | string)[] | null | undefined,
  sourceCurrency: string,
  destinationCurrency: string,
): boolean {
  const has = (c: CustomerCapability) => capabilities?.includes(c) ?? false;
  if (!capabilities || capabilities.length === 0 || (has('USD') && has('OTHER'))) return true;
  const usd = isUsdCorridor(sourceCurrency, destinationCurrency);
  if (has('USD') && (usd || isEurOnramp(sourceCurrency, destinationCurrency))) return true;
  if (has('OTHER') && !usd) return true;
  return false;
}
