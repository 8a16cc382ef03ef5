// spec: Endpoints, POST /accounts, GET /accounts, GET /accounts/:id, GET /accounts/requirements.
import { type Account, type AccountRequirement, type CreateAccountRequest } from '../../contract';
import { type CreateOptions } from '../options';
import { iterateItems, iteratePages, type ListQuery, type Page, toPagingQuery } from '../pagination';
import { parseAccount, parseAccountPage, parseRequirements } from '../parsers';
import { beforeCreate, type ClientContext, segment } from './context';

/**
 * Query of GET /accounts/requirements: "bank country code and currency code" (spec: Endpoints); the parameter
 * names are ours (docs/spec-gaps.md). The account holder country code is no longer required.
 */
export interface RequirementsQuery {
  bankCountryCode: string;
  currencyCode: string;
}

export interface AccountsApi {
  create(body: CreateAccountRequest, options: CreateOptions): Promise<Account>;
  /** One page of GET /accounts. */
  list(query?: ListQuery): Promise<Page<Account>>;
  /** Every page of GET /accounts, following pagination.nextCursor. */
  listPages(query?: ListQuery): AsyncGenerator<Page<Account>, void, undefined>;
  /** Every account of every page. */
  listAll(query?: ListQuery): AsyncGenerator<Account, void, undefined>;
  get(accountId: string): Promise<Account>;
  /** GET /accounts/requirements, legacy shape normalised to the current item list. */
  requirements(query: RequirementsQuery): Promise<AccountRequirement[]>;
}

export function createAccountsApi(ctx: ClientContext): AccountsApi {
  const list = (query?: ListQuery) =>
    ctx.transport.request({
      method: 'GET',
      path: '/accounts',
      query: toPagingQuery(query, ctx.paging),
      parse: parseAccountPage,
    });
  return {
    async create(body, options) {
      beforeCreate(ctx, 'account', body, options, 'POST /v1/accounts');
      return ctx.transport.request({
        method: 'POST',
        path: '/accounts',
        body,
        idempotencyKey: options.idempotencyKey,
        parse: parseAccount,
      });
    },
    list,
    listPages: (query) => iteratePages(list, query),
    listAll: (query) => iterateItems(list, query),
    get: async (accountId) =>
      ctx.transport.request({ method: 'GET', path: `/accounts/${segment(accountId)}`, parse: parseAccount }),
    requirements: (query) =>
      ctx.transport.request({
        method: 'GET',
        path: '/accounts/requirements',
        query: { ...query },
        parse: parseRequirements,
      }),
  };
}
