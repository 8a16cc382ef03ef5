// Exact money for the reconciliation report: amounts are summed as integers of 10^-8 units (BigInt), never as
// floats, so a total over 10,000 payments reads to the cent (0.1 + 0.2 is 0.30 here, not 0.30000000000000004).
// Eight places hold every currency the contract carries (fiat to 2 or 3, stablecoins to 6).

const SCALE = 8;
const ONE = 10n ** BigInt(SCALE);

/** An exact amount: an integer count of 10^-8 units. */
export type Exact = bigint;

/**
 * The exact value of an amount as the service's JSON carried it. JSON numbers arrive as doubles; their shortest
 * decimal form (String(n)) is the number the service wrote, which is read digit by digit, not multiplied.
 */
export function exactOf(amount: number | string): Exact {
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > SCALE) throw new RangeError(`more than ${SCALE} decimal places: ${text}`);
  const units = BigInt(whole!) * ONE + BigInt(fraction.padEnd(SCALE, '0') || '0');
  return sign === '-' ? -units : units;
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`);
  const text = String(n);
  if (!/e/i.test(text)) return text;
  // 1e-7 and the like: toFixed gives the digits without an exponent
  return n.toFixed(SCALE).replace(/\.?0+$/, '');
}

/** The decimal text of an exact amount, with at least two places (finance reads to the cent) and no float. */
export function formatExact(units: Exact, minPlaces = 2): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / ONE;
  let fraction = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  if (fraction.length < minPlaces) fraction = fraction.padEnd(minPlaces, '0');
  return `${negative ? '-' : ''}${whole.toString()}${fraction ? `.${fraction}` : ''}`;
}

export const ZERO: Exact = 0n;
