import {
  capabilitiesAllowCorridor,
  type CreatePaymentRequest,
  isBlockchainRail,
  isInForce,
} from '../../contract';
import { type FieldViolation } from '../http/api-error';
import { type SandboxData, type StoredAccount } from '../state';
import { bankCountry, isVirtual } from './accounts';
import { accountRails, railOffAccount } from './account-rails';
import { resolveLocalRail } from './corridors';

/*
 * The checks of a POST /v1/payments request against the sandbox's state (spec: Endpoints, POST /payments body),
 * after the request itself is valid. Each pushes what it refuses onto `extra`, so the caller answers every
 * violation at once, in the order the checks run.
 */

/** The destination account: it exists and holds the currency sent to it. */
export function checkDestinationAccount(
  data: SandboxData,
  req: CreatePaymentRequest,
  extra: FieldViolation[],
): StoredAccount | undefined {
  const destination = data.accounts[req.destination.accountId];
  if (!destination)
    extra.push({
      path: 'destination.accountId',
      rule: 'ACCOUNT_NOT_FOUND',
      message: `account ${req.destination.accountId} does not exist: create it first`,
    });
  else if (destination.currencyCode && destination.currencyCode !== req.destination.currencyCode) {
    extra.push({
      path: 'destination.currencyCode',
      rule: 'ACCOUNT_CURRENCY_MISMATCH',
      message: `account ${destination.id} holds ${destination.currencyCode}: send that currency`,
    });
  }
  return destination;
}

/** The account funds are pulled from, when given: it exists, is virtual and holds the currency sent. */
export function checkSourceAccount(
  data: SandboxData,
  req: CreatePaymentRequest,
  extra: FieldViolation[],
): StoredAccount | null {
  if (req.source.accountId === undefined) return null;
  const source = data.accounts[req.source.accountId] ?? null;
  if (!source)
    extra.push({
      path: 'source.accountId',
      rule: 'ACCOUNT_NOT_FOUND',
      message: `account ${req.source.accountId} does not exist`,
    });
  else if (!isVirtual(source))
    extra.push({
      path: 'source.accountId',
      rule: 'SOURCE_ACCOUNT_NOT_VIRTUAL',
      message: 'funds can only be pulled from a virtual account: omit source.accountId to fund the payment',
    });
  else if (source.currencyCode !== req.source.currencyCode)
    extra.push({
      path: 'source.currencyCode',
      rule: 'ACCOUNT_CURRENCY_MISMATCH',
      message: `account ${source.id} holds ${String(source.currencyCode)}: use that currency`,
    });
  return source;
}

/**
 * The customer the payment is made on behalf of: the caller's customerId, else the owner of the source account,
 * else of the destination. It exists, is approved and its capabilities cover the corridor.
 */
export function checkCustomer(
  data: SandboxData,
  req: CreatePaymentRequest,
  source: StoredAccount | null,
  destination: StoredAccount | undefined,
  extra: FieldViolation[],
): string | undefined {
  const customerId = req.customerId ?? source?.customerId ?? destination?.customerId;
  if (!customerId) {
    extra.push({
      path: 'customerId',
      rule: 'CUSTOMER_REQUIRED',
      message: 'give customerId, or use an account that belongs to a customer',
    });
    return customerId;
  }
  const customer = data.customers[customerId];
  if (!customer)
    extra.push({
      path: 'customerId',
      rule: 'CUSTOMER_NOT_FOUND',
      message: `customer ${customerId} does not exist`,
    });
  else if (customer.status !== 'APPROVED')
    extra.push({
      path: 'customerId',
      rule: 'CUSTOMER_NOT_APPROVED',
      message: `customer ${customerId} is ${customer.status}: wait for approval`,
    });
  // spec: Customer, capabilities — USD / OTHER limit the corridors a customer may use.
  else if (
    !capabilitiesAllowCorridor(
      customer.capabilities as string[] | undefined,
      req.source.currencyCode,
      req.destination.currencyCode,
    )
  ) {
    extra.push({
      path: 'customerId',
      rule: 'CAPABILITY_MISSING',
      message: `customer ${customerId} has capabilities ${JSON.stringify(customer.capabilities)}, which do not cover ${req.source.currencyCode} → ${req.destination.currencyCode}: a USD corridor needs USD, any other corridor OTHER (USD also covers EUR onramps)`,
    });
  }
  return customerId;
}

/**
 * The rail the destination is paid on: legacy CRYPTO and LOCAL resolved against the account, which must be reached
 * on that rail (and, for SWIFT to an individual, carry a routing number). Returns the resolved rail.
 */
export function checkDestinationRail(
  destination: StoredAccount | undefined,
  requested: string,
  asOf: Date,
  extra: FieldViolation[],
): string {
  if (!destination) return requested;
  let rail = requested;
  if (rail === 'CRYPTO') {
    // Legacy CRYPTO without destination.chain (before 2026-03-04; the spec lists no destination.chain among the
    // request fields): the account's own chain, as a conversion takes the liquidation account's rails.
    const chain = accountRails(destination).find((r) => isBlockchainRail(r));
    if (chain) rail = chain;
    else
      extra.push({
        path: 'destination.chain',
        rule: 'CRYPTO_NEEDS_CHAIN',
        message: `account ${destination.id} lists no blockchain rail: add destination.chain (the blockchain name)`,
      });
  }
  rail = resolveLocalRail(rail, bankCountry(destination));
  // spec: Account, rails (rail-specific POST /payments and POST /accounts, 2025-08-25) — an account is paid
  // on its own rails: PIX to an account registered on TED only (no pixCode) is refused.
  const offRails = railOffAccount(destination, rail, asOf);
  if (offRails) {
    extra.push({
      path: 'destination.rail',
      rule: 'RAIL_NOT_ON_ACCOUNT',
      message: `account ${destination.id} is reached on ${offRails.join(', ')}, not ${rail}: pay it on one of its rails, or register an account with ${rail} and its fields`,
    });
  }
  checkSwiftIndividualRouting(destination, rail, asOf, extra);
  return rail;
}

/**
 * spec: Account rule 3 — from 2026-07-31 a SWIFT payment to an individual needs the US correspondent bank's ABA
 * routing number; checked here too, whatever rails the account lists.
 */
function checkSwiftIndividualRouting(
  destination: StoredAccount,
  rail: string,
  asOf: Date,
  extra: FieldViolation[],
): void {
  const bank = destination.bank as Record<string, unknown> | undefined;
  const holder = destination.accountHolder as Record<string, unknown> | undefined;
  if (
    rail === 'SWIFT' &&
    holder?.type === 'INDIVIDUAL' &&
    !(typeof bank?.routingNumber === 'string' && bank.routingNumber.length > 0) &&
    isInForce('SWIFT_INDIVIDUAL_ROUTING_NUMBER', asOf)
  ) {
    extra.push({
      path: 'destination.accountId',
      rule: 'SWIFT_INDIVIDUAL_ROUTING_NUMBER',
      message: `account ${destination.id} belongs to an individual and has no bank.routingNumber: a SWIFT payment to an individual needs the US correspondent bank's ABA routing number (register an account with it)`,
    });
  }
}
