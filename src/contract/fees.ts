import { roundMinor } from './money';

// spec: Rate (quote), "Calculation". S = source amount, D = destination amount, m = midMarketRate,
// sF/sV = service fixed/variable fee, dF/dV = developer fixed/variable fee (fixed fees in the source
// currency, variable fees as fractions):
//   D = (((S - sF) * (1 - sV)) - dF) * m * (1 - dV)
//   S = (((D / (m * (1 - dV))) + dF) / (1 - sV)) + sF
// totalFeeInSourceCurrency = S - D / m: everything withheld from S, valued at the mid-market rate,
//   = sF + (S - sF)·sV + dF + ((S - sF)(1 - sV) - dF)·dV   (service and developer fees together).

export interface FeePair {
  fixed: number;
  variable: number;
}

interface Common {
  midMarketRate: number;
  serviceFee: FeePair;
  developerFee: FeePair;
  /** When given, sourceAmount and totalFeeInSourceCurrency are rounded to its minor units. */
  sourceCurrency?: string;
  /** When given, destinationAmount is rounded to its minor units. */
  destinationCurrency?: string;
}
export interface FromSourceInput extends Common {
  sourceAmount: number;
}
export interface FromDestinationInput extends Common {
  destinationAmount: number;
}
export interface CalculatedAmounts {
  sourceAmount: number;
  destinationAmount: number;
  totalFeeInSourceCurrency: number;
}

/** The fees take the whole amount, or an input is out of range. Not retryable: same input, same result. */
export class FeeCalculationError extends Error {
  readonly type = 'FEE_CALCULATION_ERROR';
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'FeeCalculationError';
  }
}

function checkInputs(c: Common): void {
  if (!(c.midMarketRate > 0) || !Number.isFinite(c.midMarketRate))
    throw new FeeCalculationError('midMarketRate must be a positive number');
  for (const [name, fee] of [
    ['serviceFee', c.serviceFee],
    ['developerFee', c.developerFee],
  ] as const) {
    if (!(fee.fixed >= 0) || !Number.isFinite(fee.fixed))
      throw new FeeCalculationError(`${name}.fixed must be ≥ 0`);
    if (!(fee.variable >= 0 && fee.variable < 1))
      throw new FeeCalculationError(`${name}.variable must be in [0, 1)`);
  }
}

function finish(c: Common, sourceAmount: number, destinationAmount: number): CalculatedAmounts {
  const source = c.sourceCurrency ? roundMinor(sourceAmount, c.sourceCurrency) : sourceAmount;
  const destination = c.destinationCurrency
    ? roundMinor(destinationAmount, c.destinationCurrency)
    : destinationAmount;
  // Fee from the exact amounts, rounded on its own: the rounding of D must not leak into the fee.
  const fee = sourceAmount - destinationAmount / c.midMarketRate;
  return {
    sourceAmount: source,
    destinationAmount: destination,
    totalFeeInSourceCurrency: c.sourceCurrency ? roundMinor(fee, c.sourceCurrency) : fee,
  };
}

/** S → D (spec: Rate (quote), first formula). Throws FeeCalculationError when the fees take all of S. */
export function destinationFromSource(input: FromSourceInput): CalculatedAmounts {
  checkInputs(input);
  const S = input.sourceAmount;
  const { serviceFee: s, developerFee: d, midMarketRate: m } = input;
  const D = ((S - s.fixed) * (1 - s.variable) - d.fixed) * m * (1 - d.variable);
  if (!(D > 0))
    throw new FeeCalculationError(`fees take the whole source amount ${S}: nothing is left to send`);
  return finish(input, S, D);
}

/** D → S (spec: Rate (quote), second formula). */
export function sourceFromDestination(input: FromDestinationInput): CalculatedAmounts {
  checkInputs(input);
  const D = input.destinationAmount;
  if (!(D > 0)) throw new FeeCalculationError(`destinationAmount must be positive, got ${D}`);
  const { serviceFee: s, developerFee: d, midMarketRate: m } = input;
  const S = (D / (m * (1 - d.variable)) + d.fixed) / (1 - s.variable) + s.fixed;
  return finish(input, S, D);
}
