import { z } from 'zod';
import { type IdPrefix, isId } from '@/lib/ids';

// The merchant API's paged lists (docs/api.md): a `cursor` query parameter that is the last
// page's nextCursor, and a reply of `data` then `nextCursor`. Each call builds its own schemas.

/** The `cursor` query parameter of a list whose items' ids begin with `prefix`. */
export function cursorParam(prefix: IdPrefix) {
  return z
    .string()
    .refine((value) => isId(prefix, value), 'cursor must be a nextCursor value from a previous page')
    .optional()
    .describe('The nextCursor of the previous page');
}

/** A page of `item`, published as `id`; `order` says which come first. */
export function pageSchema<Item extends z.ZodType>(item: Item, { id, order }: { id: string; order: string }) {
  return z
    .object({
      data: z.array(item).describe(order),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
    })
    .meta({ id });
}
