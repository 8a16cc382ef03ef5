// zod 4's ISO date and datetime patterns (core/regexes.js `date`, `datetime`), for the zod-free code that runs
// inside workflows (docs/performance.md). Checked against z.iso.* in test/unit/plain-schema.test.ts.

const DATE = String.raw`(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))`;
const TIME = String.raw`(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?`;
/** z.iso.datetime({ offset: true })'s pattern (zod 4 core/regexes.js `datetime`). */
export const ISO_DATETIME_WITH_OFFSET = new RegExp(String.raw`^${DATE}T(?:${TIME}(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$`);
/** z.iso.datetime() (UTC `Z` only). */
export const ISO_DATETIME_UTC = new RegExp(String.raw`^${DATE}T(?:${TIME}(?:Z))$`);
/** z.iso.date(): a real calendar date, YYYY-MM-DD. */
export const ISO_DATE = new RegExp(`^${DATE}$`);
