import { ListQuerySchema, zodIssuesToViolations } from '../../contract';
import { validationError } from '../http/api-error';

/**
 * The list envelope of the contract (gap: paging, docs/spec-gaps.md): newest first, `limit` 1..100
 * (default 20), `cursor` = the opaque `nextCursor` of the previous page.
 */
export function page<T extends { id: string }>(
  itemsOldestFirst: T[],
  query: URLSearchParams,
  present: (item: T) => unknown,
) {
  const parsed = ListQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) throw validationError(zodIssuesToViolations(parsed.error));
  const { limit, cursor } = parsed.data;
  const items = [...itemsOldestFirst].reverse();
  let start = 0;
  if (cursor !== undefined) {
    const afterId = decodeCursor(cursor);
    const index = afterId === null ? -1 : items.findIndex((i) => i.id === afterId);
    if (index < 0)
      throw validationError([
        {
          path: 'cursor',
          rule: 'SCHEMA',
          message: 'cursor is not a nextCursor of this list: start again without cursor',
        },
      ]);
    start = index + 1;
  }
  const slice = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return {
    data: slice.map(present),
    pagination: {
      limit,
      nextCursor: more && slice.length > 0 ? encodeCursor(slice[slice.length - 1]!.id) : null,
    },
  };
}

function encodeCursor(id: string): string {
  return Buffer.from(`after:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('after:') ? text.slice('after:'.length) : null;
}
