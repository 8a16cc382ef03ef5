// zod 4's ISO date pattern (core/regexes.js `date`), for zod-free code that workflows load (business-days.ts,
// through payment-rules; docs/performance.md). Checked against z.iso.date() in test/unit/iso-date-matches-zod.test.ts.

const DATE = String.raw`(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))`;
/** z.iso.date(): a real calendar date, YYYY-MM-DD. */
export const ISO_DATE = new RegExp(`^${DATE}$`);
