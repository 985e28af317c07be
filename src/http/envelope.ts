/**
 * The linguistic API's response envelope and paging:
 * `{"status":"ok","data":[...],"meta":{"count","page","per_page","total","pages"}}`.
 * `count` is the number of items in `data`; `total` counts every item across pages.
 */
import { z } from 'zod';

export const MAX_PER_PAGE = 200;

const DECIMAL_DIGITS = /^[0-9]{1,10}$/;

/**
 * A whole-number query parameter, parsed strictly: decimal digits only. `0x10`, `1e2`, ` 1`,
 * `+1`, `1.0` and the empty string are refused (JavaScript's Number() would take most of them).
 */
export function queryInteger(min: number, max: number, fallback: number) {
  return z.string().regex(DECIMAL_DIGITS, `expected a whole number in decimal digits, ${min}..${max}`).transform(Number).pipe(z.number().int().min(min).max(max)).default(fallback);
}

/** Paging query parameters, shared by every listing route. */
export const pagingQuery = {
  page: queryInteger(1, 1_000_000, 1).describe('Page number, from 1.'),
  per_page: queryInteger(1, MAX_PER_PAGE, 50).describe(`Items per page, 1..${MAX_PER_PAGE}.`),
};

export interface Paging {
  page: number;
  per_page: number;
}

export const metaSchema = z.object({
  count: z.number().int().describe('Items in this response.'),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int().describe('Items across all pages.'),
  pages: z.number().int(),
});

/** The envelope schema around items of `item`. */
export function envelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ status: z.literal('ok'), data: z.array(item), meta: metaSchema });
}

export interface Envelope<T> {
  status: 'ok';
  data: T[];
  meta: z.infer<typeof metaSchema>;
}

/** One page of `items` in the envelope. */
export function paginate<T>(items: readonly T[], paging: Paging): Envelope<T> {
  const start = (paging.page - 1) * paging.per_page;
  const data = items.slice(start, start + paging.per_page);
  return {
    status: 'ok',
    data,
    meta: {
      count: data.length,
      page: paging.page,
      per_page: paging.per_page,
      total: items.length,
      pages: Math.max(1, Math.ceil(items.length / paging.per_page)),
    },
  };
}

/** An unpaged result: every item on one page (single results, batches). */
export function whole<T>(items: readonly T[]): Envelope<T> {
  return paginate(items, { page: 1, per_page: Math.max(1, items.length) });
}
