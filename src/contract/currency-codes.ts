// Which currency codes a payment request may name. The spec lists the codes seen — USDC, USDT, EURC (stablecoins);
// USD, EUR, GBP, JPY, CAD, BRL, INR, PHP "and others" (fiat) (spec: Rail values, "Currency codes seen") — so fiat
// codes are checked against ISO 4217 (the active list), stablecoins against the spec's names. A code outside both
// ("USDX", "XYZ") is a typo the service would refuse only after a rate request; a caller learns it before any call.
import { STABLECOINS } from './enums';

/** ISO 4217 active alphabetic codes (funds and precious-metal codes left out: nobody pays out in them). */
export const ISO_4217_CODES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF ' +
    'CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG ' +
    'HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA ' +
    'MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD ' +
    'RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX ' +
    'USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG'
  ).split(' '),
);

export function isStablecoinCode(code: string): boolean {
  return (STABLECOINS as readonly string[]).includes(code);
}

/** A fiat code of ISO 4217 or a stablecoin the spec names. */
export function isKnownCurrencyCode(code: string): boolean {
  return ISO_4217_CODES.has(code) || isStablecoinCode(code);
}
