// spec: Endpoints, POST /customers.
import { type CreateCustomerRequest, type Customer } from '../../contract';
import { type CreateOptions } from '../options';
import { parseCustomer } from '../parsers';
import { beforeCreate, type ClientContext } from './context';

export interface CustomersApi {
  /** Creates a customer (KYC/KYB starts). Pre-validated by the contract's customer rules. */
  create(body: CreateCustomerRequest, options: CreateOptions): Promise<Customer>;
}

export function createCustomersApi(ctx: ClientContext): CustomersApi {
  return {
    async create(body, options) {
      beforeCreate(ctx, 'customer', body, options, 'POST /v1/customers');
      return ctx.transport.request({
        method: 'POST',
        path: '/customers',
        body,
        idempotencyKey: options.idempotencyKey,
        parse: parseCustomer,
      });
    },
  };
}
