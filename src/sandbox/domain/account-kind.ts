// Kind and country of a stored account, read by the account, rail and payment modules.

export function isVirtual(account: { type: string }): boolean {
  return account.type === 'VIRTUAL_BANK_ACCOUNT' || account.type === 'VIRTUAL_DIGITAL_ASSET_WALLET';
}

export function isWallet(account: { type: string }): boolean {
  return account.type === 'EXTERNAL_DIGITAL_ASSET_WALLET' || account.type === 'VIRTUAL_DIGITAL_ASSET_WALLET';
}

/** Country of an account: the bank's, else the holder's address (spec: Account, accountHolder). */
export function accountCountry(account: Record<string, unknown>): string | undefined {
  const bank = account.bank as Record<string, unknown> | undefined;
  const holder = account.accountHolder as { address?: { countryCode?: string } } | undefined;
  return (bank?.countryCode as string | undefined) ?? holder?.address?.countryCode;
}

/** Country of the sandbox's own bank that holds a virtual bank account of this currency. */
const VIRTUAL_BANK_COUNTRY: Record<string, string> = { USD: 'US', BRL: 'BR' };

/**
 * Country of the bank of a bank account: bank.countryCode; for a virtual account without one, the country
 * of the sandbox bank of its currency; for an external account without one, the holder's country.
 */
export function bankCountry(account: Record<string, unknown>): string | undefined {
  const bank = account.bank as Record<string, unknown> | undefined;
  if (typeof bank?.countryCode === 'string') return bank.countryCode;
  if (account.type === 'VIRTUAL_BANK_ACCOUNT') return VIRTUAL_BANK_COUNTRY[String(account.currencyCode)];
  return accountCountry(account);
}
