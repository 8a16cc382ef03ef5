// Indicative quotes from the rate board: services ask the board, not the rate-limited provider
// (spec: Limits, "Rate limit"), and get the contract's fee math (spec: Rate (quote), Calculation) with the
// age of the rate. A quote older than the caller's limit, or missing, is refused with a typed error.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { z } from 'zod';
import { destinationFromSource, sourceFromDestination } from '../contract';
import {
  RATE_BOARD_WORKFLOW_ID,
  rateBoardQuery,
  ratePairKey,
  type RateBoardEntry,
  type RatePair,
} from '../../workflows/rate-board/api';
import { RatePairSchema } from './quote-refresh-config';

const FeePair = z.object({ fixed: z.number(), variable: z.number() });
/** The board's answer crosses a process boundary: checked before its numbers go into the fee math. */
const BoardSnapshotSchema = z.object({
  entries: z.array(
    z.object({
      pair: RatePairSchema,
      rate: z.object({
        midMarketRate: z.number().positive(),
        invertedMidMarketRate: z.number().positive(),
        serviceFee: FeePair,
        developerFee: FeePair,
        quoteId: z.string(),
        referenceAmount: z.number(),
      }),
      fetchedAt: z.iso.datetime(),
    }),
  ),
});

export type IndicativeQuoteErrorType = 'RATE_MISSING' | 'RATE_STALE' | 'RATE_BOARD_UNAVAILABLE';

/** getIndicativeQuote's refusal: `type` RATE_MISSING, RATE_STALE or RATE_BOARD_UNAVAILABLE; retryable (the next refresh may bring the rate). */
export class IndicativeQuoteError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly type: IndicativeQuoteErrorType,
    message: string,
    readonly details: { pair: string; ageMs?: number; maxAgeMs?: number },
  ) {
    super(message);
    this.name = 'IndicativeQuoteError';
    // A stale or missing rate may be fresh after the next refresh; the caller decides whether to wait.
    this.retryable = true;
  }
}

/** The amount to quote: a source amount (a number or `{ sourceAmount }`) or `{ destinationAmount }`. */
export type QuoteAmount = number | { sourceAmount: number } | { destinationAmount: number };

/** getIndicativeQuote's options: the oldest rate accepted, the clock, the board's workflow ID. */
export interface IndicativeQuoteOptions {
  /** refuse a rate older than this (ms) */
  maxAgeMs: number;
  /** the clock to age the rate with; default now */
  now?: Date;
  boardWorkflowId?: string;
}

/** An indicative quote from the rate board and the contract's fee math: not binding (docs/quote-refresh-and-telemetry.md). */
export interface IndicativeQuote {
  pair: RatePair;
  sourceAmount: number;
  destinationAmount: number;
  totalFeeInSourceCurrency: number;
  midMarketRate: number;
  quoteId: string;
  fetchedAt: string;
  /** how old the rate is at `now` */
  ageMs: number;
  /** always true: a payment gets its own, binding quote from the provider */
  indicative: true;
}

/** The whole board (every pair with its fetch time), or RATE_BOARD_UNAVAILABLE when no board runs. */
export async function readRateBoard(
  client: Client,
  boardWorkflowId = RATE_BOARD_WORKFLOW_ID,
): Promise<RateBoardEntry[]> {
  try {
    const snapshot = await client.workflow.getHandle(boardWorkflowId).query(rateBoardQuery);
    return BoardSnapshotSchema.parse(snapshot).entries;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      throw new IndicativeQuoteError(
        'RATE_BOARD_UNAVAILABLE',
        `no rate board is running (workflow ${boardWorkflowId}); is the quote-refresh Schedule created?`,
        { pair: '*' },
      );
    }
    throw err;
  }
}

/**
 * What `amount` of a pair would come to now, from the rate board the quote-refresh Schedule fills: no call to the
 * provider. IndicativeQuoteError when the rate is missing, older than `maxAgeMs`, or no board runs.
 */
export async function getIndicativeQuote(
  client: Client,
  pairInput: RatePair,
  amount: QuoteAmount,
  options: IndicativeQuoteOptions,
): Promise<IndicativeQuote> {
  const pair = RatePairSchema.parse(pairInput);
  const key = ratePairKey(pair);
  const entries = await readRateBoard(client, options.boardWorkflowId);
  const entry = entries.find((e) => ratePairKey(e.pair) === key);
  if (!entry) {
    throw new IndicativeQuoteError(
      'RATE_MISSING',
      `the rate board has no rate for ${key}; add the pair to the quote-refresh configuration`,
      { pair: key },
    );
  }
  const now = (options.now ?? new Date()).getTime();
  const ageMs = Math.max(0, now - Date.parse(entry.fetchedAt));
  if (ageMs > options.maxAgeMs) {
    throw new IndicativeQuoteError(
      'RATE_STALE',
      `the rate for ${key} is ${Math.round(ageMs / 1000)} s old, older than the limit of ${Math.round(options.maxAgeMs / 1000)} s (fetched at ${entry.fetchedAt}); is the quote-refresh Schedule running?`,
      { pair: key, ageMs, maxAgeMs: options.maxAgeMs },
    );
  }
  const { rate } = entry;
  const common = {
    midMarketRate: rate.midMarketRate,
    serviceFee: rate.serviceFee,
    developerFee: rate.developerFee,
    sourceCurrency: pair.sourceCurrency,
    destinationCurrency: pair.destinationCurrency,
  };
  const amounts =
    typeof amount === 'number'
      ? destinationFromSource({ ...common, sourceAmount: amount })
      : 'sourceAmount' in amount
        ? destinationFromSource({ ...common, sourceAmount: amount.sourceAmount })
        : sourceFromDestination({ ...common, destinationAmount: amount.destinationAmount });
  return {
    pair,
    ...amounts,
    midMarketRate: rate.midMarketRate,
    quoteId: rate.quoteId,
    fetchedAt: entry.fetchedAt,
    ageMs,
    indicative: true,
  };
}
