// Workflow IDs, search attributes, memo-free summaries are NOT encrypted (the server indexes and shows them):
// a business key that becomes part of a workflow ID must not carry personal data (issue 13, docs/codec.md).
// This catches the obvious mistakes (an email or a phone number used as a key); it cannot catch a name.
const EMAIL = /[^\s@:]+@[^\s@:]+\.[A-Za-z]{2,}/;
const PHONE = /\+\d[\d\s().-]{7,}\d/;

/** Why the value looks like personal data, or null. */
export function personalDataInKey(value: string): string | null {
  if (EMAIL.test(value)) return 'an email address';
  if (PHONE.test(value)) return 'a phone number';
  return null;
}

/** Refuses a key that looks like personal data: it would be stored in plaintext in the workflow ID. */
export function refusePersonalDataInKey(name: string, value: string): void {
  const found = personalDataInKey(value);
  if (found) {
    throw new Error(`${name} looks like it contains ${found}: keys become workflow IDs, which are never encrypted; use an opaque id (docs/codec.md)`);
  }
}
