import { z } from 'zod';

// spec: Resources and their fields — "Timestamps are ISO 8601 strings in UTC". An explicit offset such as
// `+00:00` is accepted too and kept as sent (an unexpected form never freezes a payment;
// every reader compares them with Date.parse). Only used for what the service sends.
export const Timestamp = z.iso.datetime({ offset: true });
export const NullableTimestamp = Timestamp.nullable();
/** Calendar date YYYY-MM-DD (birth dates, holidays). */
export const IsoDate = z.iso.date();
export const NullableString = z.string().nullable();
export const NullableNumber = z.number().nullable();
/** An ISO 3166-1 alpha-2 country code (US, BR …); also its type. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as US');
/** A currency code of 3 to 5 letters (USD, BRL, USDC …); also its type. */
export const CurrencyCode = z.string().min(3).max(5);
/** A loose JSON object: unknown keys are kept. */
export const AnyObject = z.record(z.string(), z.unknown());

export { isRecord, cloneJson } from './json';
