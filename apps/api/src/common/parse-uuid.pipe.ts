import { Injectable, type PipeTransform } from '@nestjs/common';
import { badInput } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else is bad input, not a database error. */
@Injectable()
export class ParseUuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw badInput(`"${String(value).slice(0, 64)}" is not a valid id`);
    return value.toLowerCase();
  }
}
