/**
 * Escaping for XML output and decoding of the character references XML itself defines. No other
 * entity is ever expanded: documents with a DOCTYPE are refused before parsing.
 */
import { WireError } from './errors';

// Characters XML 1.0 cannot carry at all, even as references.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
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

export function escapeText(text: string): string {
  assertRepresentable(text);
  return text.replace(TEXT_SPECIAL, (c) => REPLACEMENTS[c]!);
}

export function escapeAttr(text: string): string {
  assertRepresentable(text);
  return text.replace(ATTR_SPECIAL, (c) => REPLACEMENTS[c]!);
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&([^;&]{0,12});?/g;

/** Decodes the five predefined entities and numeric character references; anything else is malformed. */
export function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new WireError('malformed-xml', 'Malformed XML: an "&" that starts no reference.');
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (!numeric) throw new WireError('malformed-xml', 'Malformed XML: a reference to an undeclared entity.');
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
    const valid =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!valid) throw new WireError('malformed-xml', 'Malformed XML: a reference to a character XML does not allow.');
    return String.fromCodePoint(code);
  });
}
