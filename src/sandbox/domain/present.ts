import { isInForce, type Payment, toTransitionalPayment } from '../../contract';
import { type SandboxData } from '../state';

/**
 * The payment as the service returns it on the clock's date: current shape from 2026-03-30, current +
 * old fields before (spec: Payment fields present only until March 30, 2026). GET responses before that
 * date also carry the former destination.account, customer and sendingCustomer objects.
 */
export function presentPayment(
  p: Payment,
  asOf: Date,
  data: SandboxData,
  forGet: boolean,
): Record<string, unknown> {
  if (isInForce('PAYLOAD_STEP_TWO', asOf)) return p;
  const out = toTransitionalPayment(p);
  if (!forGet) return out;
  const account = data.accounts[p.destination.accountId];
  const destination = out.destination as Record<string, unknown>;
  destination.account = account ? formerAccount(account) : null;
  const customer = formerCustomer(data, p.customerId);
  out.customer = customer;
  const sourceAccount = p.source.accountId ? data.accounts[p.source.accountId] : undefined;
  out.sendingCustomer = sourceAccount?.customerId ? formerCustomer(data, sourceAccount.customerId) : customer;
  return out;
}

function formerAccount(account: Record<string, unknown>): Record<string, unknown> {
  const holder = (account.accountHolder ?? {}) as Record<string, unknown>;
  const bank = (account.bank ?? {}) as Record<string, unknown>;
  const holderName =
    holder.name ??
    holder.businessName ??
    ([holder.firstName, holder.lastName].filter(Boolean).join(' ') || null);
  return {
    ...bank,
    id: account.id,
    accountHolderName: holderName,
    type: account.type,
    accountType: (account.accountType as string | undefined) ?? null,
    bankName: (bank.name as string | undefined) ?? null,
  };
}

function formerCustomer(data: SandboxData, customerId: string): Record<string, unknown> | null {
  const c = data.customers[customerId];
  if (!c) return null;
  const name =
    c.type === 'BUSINESS' ? (c.name as string) : [c.firstName, c.lastName].filter(Boolean).join(' ');
  return { id: c.id, type: c.type, name: name || null, email: (c.email as string | undefined) ?? null };
}
