// Workflow IDs, search attributes, memo-free summaries are NOT encrypted (the server indexes and shows them):
// a business key that becomes part of a workflow ID must not carry personal data (docs/codec.md; house rule: no
// personal data in workflow IDs). This refuses what is unmistakably personal — an email, a phone number written
// for people (with `+`, brackets or separators), a CPF written with its dots or dash, an IBAN (its checksum holds) —
// and nothing else: a bare run of digits is an order number as often as a phone number (`4000000123`, Shopify's
// 13-digit ids), and refusing it refused ordinary keys. So the rule for callers stays (docs/codec.md, "Keys"):
// a key is your own opaque id, never a customer's phone, tax id or account number.
const EMAIL = /[^\s@:]+@[^\s@:]+\.[A-Za-z]{2,}/;
const PHONE_INTERNATIONAL = /\+\d[\d\s().-]{7,}\d/;
/** A phone written for people: (11) 99999-9999, 11 99999-9999, 555-123-4567, 555.123.4567, 011 5555 1234. */
const PHONE_FORMATTED = /(?<![\dA-Za-z])(?:\(\d{2,3}\)\s?|\d{2,3}[\s.-])\d{3,5}[\s.-]?\d{4}(?![\dA-Za-z])/;
/** CPF (Brazilian tax id) written with a separator: 123.456.789-09, 123456789-09 (bare 11 digits: an order number too). */
const CPF = /(?<!\d)(\d{3})(\.?)(\d{3})\.?(\d{3})(-?)(\d{2})(?!\d)/g;
/** IBAN: country, two check digits, up to 30 capitals or digits, maybe in groups of four (as banks print them). */
const IBAN_CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]){11,30}(?![A-Za-z0-9])/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Dates and timestamps (2026-11-23, 20261123174040, 2026-11-23T17:40): ids made from a clock, not from a person. */
const DATE =
  /(?:19|20)\d\d-?(?:0[1-9]|1[0-2])-?(?:0[1-9]|[12]\d|3[01])(?:[T_-]?(?:[01]\d|2[0-3]):?[0-5]\d(?::?[0-5]\d)?)?/g;

/** Why the value looks like personal data, or null. */
export function personalDataInKey(value: string): string | null {
  if (EMAIL.test(value)) return 'an email address';
  if (PHONE_INTERNATIONAL.test(value)) return 'a phone number';
  if (containsIban(value)) return 'an IBAN';
  const opaque = value.replace(UUID, '~').replace(DATE, '~');
  if (containsCpf(opaque)) return 'a CPF (Brazilian tax id)';
  if (PHONE_FORMATTED.test(opaque)) return 'a phone number';
  return null;
}

/** Refuses a key that looks like personal data: it would be stored in plaintext in the workflow ID. */
export function refusePersonalDataInKey(name: string, value: string): void {
  const found = personalDataInKey(value);
  if (found) {
    throw new Error(
      `${name} looks like it contains ${found}: keys become workflow IDs, which are never encrypted; use an opaque id (docs/codec.md)`,
    );
  }
}

/** A fully formatted CPF always counts; one with a single separator when its two check digits are right. */
function containsCpf(value: string): boolean {
  for (const m of value.matchAll(CPF)) {
    const formatted = m[2] === '.' && m[5] === '-';
    const separated = m[2] === '.' || m[5] === '-';
    if (formatted || (separated && cpfCheckDigitsValid(`${m[1]}${m[3]}${m[4]}${m[6]}`))) return true;
  }
  return false;
}

function cpfCheckDigitsValid(digits: string): boolean {
  if (/^(\d)\1{10}$/.test(digits)) return false;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    if (((sum * 10) % 11) % 10 !== Number(digits[length])) return false;
  }
  return true;
}

/** An IBAN's check digits make its mod-97 remainder 1 (ISO 13616); 15 to 34 characters. */
function containsIban(value: string): boolean {
  for (const [candidate] of value.matchAll(IBAN_CANDIDATE)) {
    const compact = candidate.replace(/\s/g, '');
    if (compact.length <= 34 && ibanChecksumValid(compact)) return true;
  }
  return false;
}

function ibanChecksumValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
