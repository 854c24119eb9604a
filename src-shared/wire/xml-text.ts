/**
 * Escaping for XML output, and the characters XML 1.0 cannot carry at all. (Reading, with the
 * references XML itself defines and no other entity, is xml-tree's.)
 */
import { WireError } from './errors';

// Characters XML 1.0 cannot carry at all, even as references.
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what it matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const TEXT_SPECIAL = /[&<>\r]/g;
const ATTR_SPECIAL = /[&<>"\r\n\t]/g;
const REPLACEMENTS: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  // A raw CR would be normalised away by the reader; a reference keeps it.
  '\r': '&#xD;',
  '\n': '&#xA;',
  '\t': '&#x9;',
};

/** True when the text holds a character no XML 1.0 document can carry. */
export function hasForbiddenXmlChar(text: string): boolean {
  return FORBIDDEN.test(text);
}

function assertRepresentable(text: string): void {
  if (FORBIDDEN.test(text)) {
    throw new WireError('invalid-value', 'Text holds a control character that XML cannot carry.');
  }
}

// Anything escapeText has to look at twice: a special character, a control character, a surrogate.
// eslint-disable-next-line no-control-regex
const TEXT_CARE = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeText(text: string): string {
  // Most text (names, descriptions) needs nothing: one scan answers it.
  if (!TEXT_CARE.test(text)) return text;
  assertRepresentable(text);
  return text.replace(TEXT_SPECIAL, (c) => REPLACEMENTS[c]!);
}

export function escapeAttr(text: string): string {
  assertRepresentable(text);
  return text.replace(ATTR_SPECIAL, (c) => REPLACEMENTS[c]!);
}
