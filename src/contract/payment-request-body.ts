// The POST /payments body as a caller writes it, as a TypeScript type (the validators check the same fields at run
// time: validate-payment.ts). Types only: the Nexus service definition and workflow bundles import it.
import type { PaymentReason, Rail } from './enums';

/**
 * The POST /payments body as a caller writes it (spec: Endpoints, POST /payments body): closed, so a misspelt
 * field is a compile error, not a refusal at run time. The closed lists are literal unions: `rail` is one of the
 * spec's enumerated rails (spec: Rail values, enforced from 2026-07-31: WIRE, CRYPTO and FPS are refused) and
 * `paymentReason` one of its 17 accepted reasons (spec: Payment reason values, from 2026-07-31), so a value the
 * service refuses is a compile error too. Currency codes stay strings: the spec's list is open ("and others").
 * The values are still checked when the request is sent (JavaScript callers, JSON read at run time).
 */
// a type, not an interface: it stays assignable where a loose JSON object is taken (TransferInput's request)
export type PaymentRequest = {
  source: {
    currencyCode: string;
    amount: number;
    /** a rail; a blockchain name (POLYGON, …) for crypto funding */
    rail: Rail;
    fromAddress?: string;
    /** when set, funds are pulled at once (spec: Payment, rule 1) */
    accountId?: string;
  };
  destination: { currencyCode: string; rail: Rail; accountId: string };
  customerId?: string;
  comment?: string;
  reference?: string;
  paymentReason: PaymentReason;
  returnAddress?: string;
};
