import { z } from 'zod';

// spec: Shape gaps — "The envelope of list responses other than corridors: not shown". Our wire decision
// (docs/spec-gaps.md): { data: T[], pagination: { limit, nextCursor } }; query limit 1..100 (default 20).
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

export function listEnvelope<T extends z.ZodType>(itemSchema: T) {
  return z.looseObject({
    data: z.array(itemSchema),
    pagination: z.looseObject({
      limit: z.number().int().min(1).max(LIST_LIMIT_MAX),
      nextCursor: z.string().nullable(),
    }),
  });
}

export const ListQuerySchema = z.looseObject({
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

// spec: Endpoints, GET /payments/corridors — "object with data: array of corridor objects".
export function dataEnvelope<T extends z.ZodType>(itemSchema: T) {
  return z.looseObject({ data: z.array(itemSchema) });
}
