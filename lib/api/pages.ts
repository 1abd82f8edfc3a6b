import { z } from 'zod';
import { type IdPrefix, isId } from '@/lib/ids';

// Paged lists: `cursor` is the last page's nextCursor; replies are `data` then `nextCursor`.

export function cursorParam(prefix: IdPrefix) {
  return z
    .string()
    .refine((value) => isId(prefix, value), 'cursor must be a nextCursor value from a previous page')
    .optional()
    .describe('The nextCursor of the previous page');
}

/** Published as `id`. */
export function pageSchema<Item extends z.ZodType>(item: Item, { id, order }: { id: string; order: string }) {
  return z
    .object({
      data: z.array(item).describe(order),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
    })
    .meta({ id });
}
