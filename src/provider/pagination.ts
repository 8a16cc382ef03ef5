// List endpoints: one page, or an async iterator over every page following `pagination.nextCursor`.
// spec: Shape gaps (query and paging parameters and the envelope are not shown); our decision is the contract's
// listEnvelope and `limit` / `cursor` query parameters (docs/spec-gaps.md). The parameter names are options.
import { ResponseShapeError } from './errors';
import { type Query, type QueryValue } from './transport';

export interface Page<T> {
  data: T[];
  /** Opaque cursor of the next page; null on the last page. */
  nextCursor: string | null;
  limit: number;
}

/** Query of a list call: `limit` and `cursor`, plus any filter the endpoint takes (passed through as is). */
export interface ListQuery {
  limit?: number;
  cursor?: string;
  [filter: string]: QueryValue;
}

export interface PagingParams {
  /** Query parameter carrying the page size. Default `limit`. */
  limitParam: string;
  /** Query parameter carrying the cursor. Default `cursor`. */
  cursorParam: string;
}

export const DEFAULT_PAGING: PagingParams = { limitParam: 'limit', cursorParam: 'cursor' };

export function toPagingQuery(query: ListQuery | undefined, paging: PagingParams): Query {
  const { limit, cursor, ...filters } = query ?? {};
  return { ...filters, [paging.limitParam]: limit, [paging.cursorParam]: cursor };
}

/** Every page, starting from `query.cursor` (or the first page), until nextCursor is null. */
export async function* iteratePages<T>(
  fetchPage: (query: ListQuery) => Promise<Page<T>>,
  query: ListQuery = {},
): AsyncGenerator<Page<T>, void, undefined> {
  let cursor = query.cursor;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage({ ...query, cursor });
    yield page;
    if (page.nextCursor === null) return;
    // A service that hands back a cursor it already gave would loop forever; stop instead.
    if (seen.has(page.nextCursor)) {
      throw new ResponseShapeError(`Paging loop: the service returned cursor ${page.nextCursor} twice`, {
        fields: [{ path: 'pagination.nextCursor', rule: 'paging', message: 'a cursor was returned twice' }],
      });
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Every item of every page. */
export async function* iterateItems<T>(
  fetchPage: (query: ListQuery) => Promise<Page<T>>,
  query: ListQuery = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(fetchPage, query)) {
    yield* page.data;
  }
}
