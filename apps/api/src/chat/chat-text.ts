import { badInput } from '../common/errors.js';

/** The most characters (code points, as PostgreSQL's varchar counts them) a message holds, after trimming. */
export const CHAT_MAX_CHARS = 500;
/** The most characters a report's reason holds. */
export const REPORT_REASON_MAX_CHARS = 500;
/** What a client may send before trimming: room for spaces around a full message, no more. */
export const CHAT_RAW_MAX = 2_000;

// Control characters (line breaks included: a message is one line) and the bidirectional
// overrides and isolates, which make a message show other text than it holds.
const REFUSED = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/**
 * A message or reason as it is kept: NFC, trimmed, checked. Plain text: it is never read as HTML
 * or markup anywhere, so nothing in it needs escaping here, only refusing what no reader can show
 * honestly. BAD_INPUT naming `field` otherwise.
 */
export function chatText(raw: string, field: string, max: number, optional = false): string {
  // With the u flag a pair is one code point: only a lone surrogate matches.
  if (/[\uD800-\uDFFF]/u.test(raw)) throw badInput(`${field} is not valid text (a lone surrogate)`, { field });
  const text = raw.normalize('NFC').trim();
  if (text === '' && !optional) throw badInput(`${field} must not be empty`, { field });
  const length = [...text].length;
  if (length > max) throw badInput(`${field} must be at most ${max} characters long (it has ${length})`, { field, max });
  if (REFUSED.test(text)) throw badInput(`${field} must not hold control characters or line breaks`, { field });
  return text;
}
