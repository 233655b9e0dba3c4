// Every date a client sends goes through parseDateTime: `new Date()` reads an impossible calendar
// date by rolling it over (2026-02-30 as 2 March, 2026-04-31 as 1 May), so it is never used on input.
import { GraphQLISODateTime } from '@nestjs/graphql';
import { Transform } from 'class-transformer';
import { IsDate } from 'class-validator';
import { GraphQLScalarType, type GraphQLSchema, Kind, type ValueNode } from 'graphql';

// RFC 3339's date-time (`T` and `Z` in either case), or a bare date read as 00:00 UTC.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2})))?$/;

const daysIn = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** The instant a client's date-time names, or null when it is not one: malformed or not on the calendar. */
export function parseDateTime(text: string): Date | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (m[4] !== undefined) {
    // A leap second (:60) has no instant of its own in JavaScript: refused rather than rolled over.
    if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return null;
    if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  }
  const at = new Date(m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : text.toUpperCase());
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * A date-time input field (a REST query parameter or a GraphQL input field): the text read by
 * parseDateTime; anything else is BAD_INPUT naming the field, with the ValidationPipe's path.
 */
export function DateTimeInput(field: string): PropertyDecorator {
  const transform = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (parseDateTime(value) ?? value) : value));
  const check = IsDate({ message: `${field} must be a date-time on the calendar, such as 2026-03-01T12:00:00Z` });
  return (target, key) => {
    transform(target, key);
    check(target, key);
  };
}

const NOT_A_STRING = 'A DateTime is a string, such as 2026-03-01T12:00:00Z';

/**
 * The schema's DateTime (Nest's GraphQLISODateTime, which reads input with `new Date()`) made to
 * read its input with parseDateTime; its output is unchanged. A string parseDateTime cannot read
 * is handed on as the text it is: the input field's DateTimeInput refuses it naming the field,
 * where the scalar's own error could only name the variable. Nest builds the code-first schema
 * with the scalar object itself, so this changes that object (one schema per process).
 */
export function readDateTimeInputStrictly(schema: GraphQLSchema): GraphQLSchema {
  const type = schema.getType(GraphQLISODateTime.name);
  if (!(type instanceof GraphQLScalarType)) return schema;
  type.parseValue = (value: unknown) => {
    if (typeof value !== 'string') throw new TypeError(NOT_A_STRING);
    return parseDateTime(value) ?? value;
  };
  type.parseLiteral = (ast: ValueNode) => {
    if (ast.kind !== Kind.STRING) throw new TypeError(NOT_A_STRING);
    return parseDateTime(ast.value) ?? ast.value;
  };
  return schema;
}
