import { ArgsType, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { badInput } from './errors.js';
import { Prop } from './model-field.js';

// Every list pages the same way: at most PAGE_MAX items (`first`), then the next page `after` the
// page's `nextCursor`. A cursor is the sort key of the page's last item, so a page never shifts
// when items are added before it (no offsets: an offset counts rows that may have moved).

/** The most items one page holds, on every list. The query cost limit counts list fields by it. */
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 20;

/** The page size argument alone: `first`, 1 to PAGE_MAX (the event log pages by seq instead of a cursor). */
@ArgsType()
export class PageSizeArgs {
  @Prop(() => Int, {
    defaultValue: PAGE_DEFAULT,
    description: `Page size, 1 to ${PAGE_MAX}`,
    api: { minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT },
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'first must be a whole number' })
  @Min(1, { message: `first must be 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `first must be 1 to ${PAGE_MAX}` })
  first: number = PAGE_DEFAULT;
}

/** `first` and `after`: GraphQL arguments and REST query parameters of every cursor-paged list. */
@ArgsType()
export class PageArgs extends PageSizeArgs {
  @Prop(() => String, { optional: true, description: 'The nextCursor of the previous page; omitted: the first page' })
  @IsOptional()
  @IsString({ message: 'after must be a cursor string' })
  @Length(1, 200, { message: 'after is not a valid cursor' })
  after?: string | null;
}

/** Where a page of a list ordered by (time, id) ends. */
export interface CursorKey {
  at: Date;
  id: string;
}

/** An opaque cursor: base64url of the last item's sort key. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.at.toISOString()}|${key.id}`).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The sort key of a cursor; anything this server did not make is BAD_INPUT naming `field`. */
export function decodeCursor(cursor: string, field = 'after'): CursorKey {
  const [time = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(time);
  if (rest.length > 0 || !UUID.test(id) || !ISO.test(time) || Number.isNaN(at.getTime())) {
    throw badInput(`${field} is not a valid cursor; pass the nextCursor of the previous page`, { field });
  }
  return { at, id };
}

/**
 * The page of `rows` (fetched with `take: first + 1`): the first `first` of them, whether more
 * follow, and the cursor of the next page.
 */
export function pageOf<T>(rows: T[], first: number, key: (row: T) => CursorKey): { items: T[]; nextCursor: string | null; hasMore: boolean } {
  const hasMore = rows.length > first;
  const items = hasMore ? rows.slice(0, first) : rows;
  const last = items.at(-1);
  return { items, hasMore, nextCursor: hasMore && last !== undefined ? encodeCursor(key(last)) : null };
}
