// spec: Endpoints, POST /payments, GET /payments, GET /payments/:id, GET /payments/customer/:customerId.
// Every payment is normalised to the current shape (spec: Payment, transitional fields until 2026-03-30).
import { type CreatePaymentRequest, type Payment } from '../../contract';
import { type CreateOptions } from '../options';
import { iterateItems, iteratePages, type ListQuery, type Page, toPagingQuery } from '../pagination';
import { parsePayment, parsePaymentPage } from '../parsers';
import { beforeCreate, type ClientContext, segment } from './context';

export interface PaymentsApi {
  /** Creates a payment. Pre-validated by the contract's payment rules (reasons, rails, dated changes). */
  create(body: CreatePaymentRequest, options: CreateOptions): Promise<Payment>;
  list(query?: ListQuery): Promise<Page<Payment>>;
  listPages(query?: ListQuery): AsyncGenerator<Page<Payment>, void, undefined>;
  listAll(query?: ListQuery): AsyncGenerator<Payment, void, undefined>;
  get(paymentId: string): Promise<Payment>;
  /** One page of GET /payments/customer/:customerId (replaces the removed entity and recipient lookups). */
  listByCustomer(customerId: string, query?: ListQuery): Promise<Page<Payment>>;
  listByCustomerPages(customerId: string, query?: ListQuery): AsyncGenerator<Page<Payment>, void, undefined>;
  listByCustomerAll(customerId: string, query?: ListQuery): AsyncGenerator<Payment, void, undefined>;
}

export function createPaymentsApi(ctx: ClientContext): PaymentsApi {
  const list = (query?: ListQuery) =>
    ctx.transport.request({
      method: 'GET',
      path: '/payments',
      query: toPagingQuery(query, ctx.paging),
      parse: parsePaymentPage,
    });
  const byCustomer = (customerId: string) => (query?: ListQuery) =>
    ctx.transport.request({
      method: 'GET',
      path: `/payments/customer/${segment(customerId)}`,
      query: toPagingQuery(query, ctx.paging),
      parse: parsePaymentPage,
    });
  return {
    async create(body, options) {
      beforeCreate(ctx, 'payment', body, options, 'POST /v1/payments');
      return ctx.transport.request({
        method: 'POST',
        path: '/payments',
        body,
        idempotencyKey: options.idempotencyKey,
        parse: parsePayment,
      });
    },
    list,
    listPages: (query) => iteratePages(list, query),
    listAll: (query) => iterateItems(list, query),
    get: async (paymentId) =>
      ctx.transport.request({ method: 'GET', path: `/payments/${segment(paymentId)}`, parse: parsePayment }),
    listByCustomer: async (customerId, query) => byCustomer(customerId)(query),
    listByCustomerPages: (customerId, query) => iteratePages(byCustomer(customerId), query),
    listByCustomerAll: (customerId, query) => iterateItems(byCustomer(customerId), query),
  };
}
