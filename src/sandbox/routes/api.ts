import { isInForce } from '../../contract';
import { type SandboxCore } from '../core';
import { type AccountService } from '../domain/accounts';
import { type CustomerService } from '../domain/customers';
import { type DepositService } from '../domain/deposits';
import { type PaymentEngine } from '../domain/payments';
import { type RateBook } from '../domain/rates';
import { endpointRemoved } from '../http/api-error';
import { Router } from '../http/router';
import { type StoredAccount } from '../state';
import { page } from './paging';
import { registerReferenceRoutes } from './reference';

export interface Services {
  core: SandboxCore;
  customers: CustomerService;
  accounts: AccountService;
  payments: PaymentEngine;
  deposits: DepositService;
  rates: RateBook;
}

/** The service's endpoints under /v1 (spec: Endpoints). Creating calls are idempotent (Authentication 3). */
export function apiRouter(s: Services): Router {
  const { core, customers, accounts, payments } = s;
  const api = new Router();
  const asOf = () => core.now();

  // Customers (spec: Customer; GET /customers/:id and the list are our additions, docs/spec-gaps.md).
  api.post('/v1/customers', ({ body }) => ({ status: 201, body: customers.create(body) }), {
    idempotent: true,
  });
  api.get('/v1/customers', ({ query }) => ({ status: 200, body: page(customers.list(), query, (c) => c) }));
  api.get('/v1/customers/:id', ({ params }) => ({ status: 200, body: customers.get(params.id!) }));

  // Accounts (spec: Account). Before 2026-03-04 GET responses also carry paymentAccountHolder (rule 5).
  const presentAccount = (a: StoredAccount) =>
    isInForce('PAYMENT_ACCOUNT_HOLDER_REMOVED', asOf()) || a.accountHolder === undefined
      ? a
      : { ...a, paymentAccountHolder: a.accountHolder };
  api.post('/v1/accounts', ({ body }) => ({ status: 201, body: accounts.create(body) }), {
    idempotent: true,
  });
  api.get('/v1/accounts', ({ query }) => {
    const customerId = query.get('customerId');
    const type = query.get('type');
    const list = accounts
      .list()
      .filter((a) => (!customerId || a.customerId === customerId) && (!type || a.type === type));
    return { status: 200, body: page(list, withoutFilters(query, ['customerId', 'type']), presentAccount) };
  });
  api.get('/v1/accounts/:id', ({ params }) => ({
    status: 200,
    body: presentAccount(accounts.get(params.id!)),
  }));

  // Payments (spec: Payment; Endpoints).
  api.post(
    '/v1/payments',
    ({ body }) => ({ status: 201, body: payments.present(payments.create(body), false) }),
    { idempotent: true },
  );
  api.get('/v1/payments', ({ query }) => {
    const status = query.get('status');
    const type = query.get('type');
    const customerId = query.get('customerId');
    const list = Object.values(core.data.payments).filter(
      (p) =>
        (!status || p.status === status) &&
        (!type || p.type === type) &&
        (!customerId || p.customerId === customerId),
    );
    return {
      status: 200,
      body: page(list, withoutFilters(query, ['status', 'type', 'customerId']), (p) =>
        payments.present(p, true),
      ),
    };
  });
  api.get('/v1/payments/:id', ({ params }) => ({
    status: 200,
    body: payments.present(payments.get(params.id!), true),
  }));
  api.get('/v1/payments/customer/:customerId', ({ params, query }) => {
    const list = Object.values(core.data.payments).filter((p) => p.customerId === params.customerId);
    return { status: 200, body: page(list, query, (p) => payments.present(p, true)) };
  });
  // spec: Endpoints — removed from use on 2026-03-04: use GET /payments/customer/:customerId.
  api.get('/v1/payments/entity/:entityId', ({ params, query }) => {
    if (isInForce('ENTITY_AND_RECIPIENT_LOOKUPS_REMOVED', asOf()))
      throw endpointRemoved('GET /v1/payments/customer/:customerId', '2026-03-04');
    const list = Object.values(core.data.payments).filter((p) => p.customerId === params.entityId);
    return { status: 200, body: page(list, query, (p) => payments.present(p, true)) };
  });
  api.get('/v1/payment/recipient/:recipient', ({ params, query }) => {
    if (isInForce('ENTITY_AND_RECIPIENT_LOOKUPS_REMOVED', asOf()))
      throw endpointRemoved('GET /v1/payments/customer/:customerId', '2026-03-04');
    const list = Object.values(core.data.payments).filter(
      (p) => p.destination.accountId === params.recipient,
    );
    return { status: 200, body: page(list, query, (p) => payments.present(p, true)) };
  });

  registerReferenceRoutes(api, core, s.rates);
  return api;
}

function withoutFilters(query: URLSearchParams, names: string[]): URLSearchParams {
  const q = new URLSearchParams(query);
  for (const n of names) q.delete(n);
  return q;
}
