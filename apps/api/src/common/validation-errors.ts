import type { ValidationError } from 'class-validator';
import { badInput, type DomainError } from './errors.js';

/**
 * The ValidationPipe's refusal in the one vocabulary: BAD_INPUT naming the first field that failed
 * (a dotted path into a body), every message in the text, and all of them in `problems` when
 * there are several.
 */
export function validationFailed(errors: ValidationError[]): DomainError {
  const found: { field: string; message: string }[] = [];
  const walk = (list: ValidationError[], prefix: string) => {
    for (const error of list) {
      const field = prefix ? `${prefix}.${error.property}` : error.property;
      // A nested field's message starts with its parent's path, as Nest's own factory writes it.
      for (const message of Object.values(error.constraints ?? {})) found.push({ field, message: prefix ? `${prefix}.${message}` : message });
      if (error.children?.length) walk(error.children, field);
    }
  };
  walk(errors, '');
  const messages = found.map((f) => f.message);
  if (messages.length === 0) return badInput('The input is not valid');
  return badInput(messages.join('; '), { field: found[0].field, ...(messages.length > 1 ? { problems: messages } : {}) });
}
