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
      for (const message of Object.values(error.constraints ?? {})) found.push({ field, message: withPath(message, field) });
      if (error.children?.length) walk(error.children, field);
    }
  };
  walk(errors, '');
  // Two rules may say the same (`first=abc` is neither at least 1 nor at most 100): said once.
  const messages = [...new Set(found.map((f) => f.message))];
  if (messages.length === 0) return badInput('The input is not valid');
  return badInput(messages.join('; '), { field: found[0].field, ...(messages.length > 1 ? { problems: messages } : {}) });
}

/**
 * A message that starts with the end of its field's path (`moveSeconds must…`, or a message that
 * names its own parent, `timeControl.moveSeconds must…`) starts with the whole path instead; any
 * other gets the parent's path in front, as Nest's own factory writes it.
 */
function withPath(message: string, field: string): string {
  const parts = field.split('.');
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join('.');
    if (message.startsWith(tail) && /^[\s:]/.test(message.slice(tail.length))) return field + message.slice(tail.length);
  }
  const parent = parts.slice(0, -1).join('.');
  return parent ? `${parent}.${message}` : message;
}
