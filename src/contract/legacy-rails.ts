import { isInForce } from './rules';

// spec: Rail values — "Deprecated: WIRE (use SWIFT), CRYPTO (use the blockchain name; removed from use as of
// March 4, 2026)"; POST /payments body — "When source.rail is CRYPTO (legacy), the chain value replaces it
// and is stored as the rail". One mapping for every place a rail is read (payment sides, rate query).

/**
 * The rail the service works with for a requested rail at asOf: WIRE → SWIFT until the rail enum is
 * enforced (2026-07-31, after which WIRE is refused by validation); CRYPTO → the chain given with it
 * before 2026-03-04. Anything else (and CRYPTO without a chain) is returned unchanged.
 */
export function currentRail(rail: string, chain: unknown, asOf: Date): string {
  if (rail === 'WIRE' && !isInForce('RAILS_ENUM_ENFORCED', asOf)) return 'SWIFT';
  if (
    rail === 'CRYPTO' &&
    !isInForce('CRYPTO_RAIL_REMOVED', asOf) &&
    typeof chain === 'string' &&
    chain.length > 0
  )
    return chain;
  return rail;
}
