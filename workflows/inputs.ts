// zod schemas of the workflow inputs (a workflow input crosses a boundary: it comes from a client).
// Request bodies are kept loose here on purpose: the contract validators report every violation of them
// as a REJECTED outcome instead of failing the workflow.
// Clients parse with these (src/client); workflows import only the types.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the clients' schemas, never evaluated by a workflow
import { z } from 'zod';
import type { Customer } from '../src/contract/customer';
import { PaymentEventsOptionsSchema } from '../src/contract/outbound-events';
import type { Payment } from '../src/contract/payment';
import type { PaymentRequest } from '../src/contract/payment-request-body';

const durationMs = z.number().int().positive();
const body = z.looseObject({});

export const PaymentInputSchema = z.object({
  paymentKey: z.string().min(1),
  request: body,
  limits: z
    .object({
      /** refuse when the rate's totalFeeInSourceCurrency is above this (source currency) */
      maxTotalFee: z.number().nonnegative().optional(),
      /** refuse when |quote.exchangeRate − midMarketRate| / midMarketRate is above this fraction */
      maxRateDrift: z.number().nonnegative().optional(),
    })
    .optional(),
  options: z
    .object({
      /** after the provider's EXPIRED, keep listening this long for a refund or a legacy late funding */
      expiredLingerMs: z.number().int().nonnegative().optional(),
      /**
       * safety GET when nothing was heard for this long (default 24 h; the reconcile Schedule's sweep finds a lost
       * webhook sooner, docs/operations.md)
       */
      reconcileEveryMs: durationMs.optional(),
      /** business-day holidays (YYYY-MM-DD) for the funding deadline */
      holidays: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * Send this payment's lifecycle events to a backend (docs/outbound-events.md): `{}` for the worker's default
   * endpoint, `{ url }` for another configured one. Absent: no events (payments started before events existed).
   */
  events: PaymentEventsOptionsSchema.optional(),
});
/** The payment workflow's input: the paymentKey, the POST /payments body, optional limits, options and events. */
export type PaymentInput = z.input<typeof PaymentInputSchema>;
/** startPayment's input (the client's and the Nexus operation's): PaymentInput with the request typed as the contract's. */
export type StartPaymentInput = Omit<PaymentInput, 'request'> & { request: PaymentRequest };
export type { PaymentRequest };

export const ProviderPaymentInputSchema = z.object({
  providerPaymentId: z.string().min(1),
  /**
   * a snapshot already known (the POST response, or the state carried over by continue-as-new): parsed by the
   * edge that read it (the provider client), so typed here and not checked again
   */
  payment: z.custom<Payment>().optional(),
  subscribers: z.array(z.string()).optional(),
  seenEventIds: z.array(z.string()).optional(),
  statusHistory: z.array(z.object({ at: z.string(), status: z.string(), cause: z.string() })).optional(),
  terminalSince: z.string().nullable().optional(),
  /** GET when no event came for this long (default 1 hour) */
  reconcileEveryMs: durationMs.optional(),
  /** keep the entity open this long after a terminal status (default 7 days) */
  lingerAfterTerminalMs: z.number().int().nonnegative().optional(),
  /** continue-as-new once history has this many events (default 2000) or the server suggests it */
  continueAsNewAfterEvents: z.number().int().positive().optional(),
  /** carried over by continue-as-new: pushed final statuses still waiting for their GET (push-confirmation.ts) */
  unconfirmedPushes: z
    .array(
      z.object({
        eventId: z.string(),
        payment: z.custom<Payment>(),
        cause: z.enum(['event', 'reconcile']).optional(),
      }),
    )
    .optional(),
  /**
   * Subscribers that asked for outbound events, and the status each was last told (or announced after it
   * closed): a move after that is sent as payment.moved_after_outcome. Carried over by continue-as-new.
   */
  eventsFor: z
    .array(
      z.object({
        subscriber: z.string(),
        paymentKey: z.string(),
        endpointUrl: z.string().nullable(),
        told: z.string().nullable(),
        /** what the subscriber read itself and told its backend (knowledge.ts, moveKey); absent in old runs */
        readByIt: z.string().optional(),
        /** `told` is a moveKey (knowledge.ts, ToldEntry); absent in what older builds carried over */
        keyed: z.boolean().optional(),
        /** an older build's entry: the key of what its run sent the subscriber last (knowledge.ts, sentBeforeUpgrade) */
        sentKey: z.string().optional(),
        /** found only by visibility (provider-payment/facts.ts, EventsForEntry): never named in the run's result */
        foundBy: z.literal('visibility').optional(),
      }),
    )
    .optional(),
  /** carried over by continue-as-new: the run looked for a closed payment's events registration (announce-late.ts) */
  registrationLookedUp: z.boolean().optional(),
  /** carried over by continue-as-new: registration lookups made so far (announce-late.ts; bounded per following) */
  registrationLookups: z.number().int().nonnegative().optional(),
  /** carried over with registrationLookups: the workflow time (ms) before which no lookup is asked again */
  registrationNotBefore: z.number().nonnegative().optional(),
  /** carried over by continue-as-new: pushes the GET did not bear out */
  pushMismatches: z
    .array(z.object({ eventId: z.string(), pushed: z.string(), read: z.string(), at: z.string() }))
    .optional(),
});
export type ProviderPaymentInput = z.input<typeof ProviderPaymentInputSchema>;

export const OnboardCustomerInputSchema = z.object({
  customerKey: z.string().min(1),
  customer: body,
  /** give up waiting for the review outcome after this long (default 7 days) */
  reviewTimeoutMs: durationMs.optional(),
  /** GET the customer this often while in review, when the client supports it (default 1 hour) */
  reconcileEveryMs: durationMs.optional(),
});
export type OnboardCustomerInput = z.input<typeof OnboardCustomerInputSchema>;

export const RegisterAccountInputSchema = z.object({
  accountKey: z.string().min(1),
  account: body,
  /** GET /accounts/requirements query; derived from the account when absent (external bank accounts only) */
  requirementsQuery: z.object({ bankCountryCode: z.string(), currencyCode: z.string() }).optional(),
  accountHolderType: z.enum(['INDIVIDUAL', 'BUSINESS']).optional(),
});
export type RegisterAccountInput = z.input<typeof RegisterAccountInputSchema>;

export const ProviderCustomerInputSchema = z.object({
  customerId: z.string().min(1),
  /** parsed at the edge (the ingress, CustomerSchema) or carried over by continue-as-new */
  customer: z.custom<Customer>().optional(),
  subscribers: z.array(z.string()).optional(),
  seenEventIds: z.array(z.string()).optional(),
  lingerAfterFinalMs: z.number().int().nonnegative().optional(),
  /** a review with no change for this long ends the entity (default 30 days); continue-as-new if someone waits */
  maxReviewIdleMs: durationMs.optional(),
  /** continue-as-new once history has this many events (default 2000) or the server suggests it */
  continueAsNewAfterEvents: z.number().int().positive().optional(),
});
export type ProviderCustomerInput = z.input<typeof ProviderCustomerInputSchema>;

export const TransferInputSchema = z.object({
  transferKey: z.string().min(1),
  /** an existing provider customer id skips onboarding */
  customer: z.union([
    z.object({ customerId: z.string().min(1) }),
    z.object({ customerKey: z.string().min(1), body, reviewTimeoutMs: durationMs.optional() }),
  ]),
  /** an existing account id skips registration */
  account: z.union([
    z.object({ accountId: z.string().min(1) }),
    z.object({
      accountKey: z.string().min(1),
      body,
      requirementsQuery: RegisterAccountInputSchema.shape.requirementsQuery,
      accountHolderType: RegisterAccountInputSchema.shape.accountHolderType,
    }),
  ]),
  payment: z.object({
    paymentKey: z.string().min(1).optional(),
    /** destination.accountId (and customerId, if the body has one) are filled from the steps before */
    request: body,
    limits: PaymentInputSchema.shape.limits,
    options: PaymentInputSchema.shape.options,
  }),
  /**
   * Send the transfer's lifecycle events and its payment's to a backend (docs/outbound-events.md, "Transfers"), as
   * PaymentInput.events. Absent: none (transfers started before transfer events existed).
   */
  events: PaymentEventsOptionsSchema.optional(),
});
/** startTransfer's input: the transfer's key, its customer, its account and its payment. */
export type TransferInput = z.input<typeof TransferInputSchema>;

export const ReconcilePaymentsInputSchema = z.object({
  /** look at payments created this long ago or later (default 6 hours: several runs see each payment) */
  windowMs: durationMs.optional(),
});
export type ReconcilePaymentsInput = z.input<typeof ReconcilePaymentsInputSchema>;
