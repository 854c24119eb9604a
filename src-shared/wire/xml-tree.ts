/**
 * Safe XML reading on fast-xml-parser: size, depth and DOCTYPE are checked first, no entity is ever
 * expanded beyond XML's own five and character references, and the result is a small namespace-aware
 * tree, so that callers match elements by local name whatever prefix (or none) a writer chose.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { WireError } from './errors';
import { decodeReferences, hasForbiddenXmlChar } from './xml-text';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export interface XmlAttribute {
  readonly local: string;
  readonly ns: string;
  readonly value: string;
}

export interface XmlElement {
  readonly local: string;
  /** Resolved namespace URI; '' when the element is in no namespace. */
  readonly ns: string;
  readonly attrs: readonly XmlAttribute[];
  readonly children: readonly XmlElement[];
  /** Decoded character data directly inside the element (text and CDATA, concatenated). */
  readonly text: string;
}

export interface XmlLimits {
  /** Largest document, in UTF-16 code units. */
  maxChars: number;
  /** Deepest element nesting. */
  maxDepth: number;
}

export const DEFAULT_LIMITS: XmlLimits = { maxChars: 32 * 1024 * 1024, maxDepth: 64 };

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const parsers = new Map<number, XMLParser>();
function parserFor(maxDepth: number): XMLParser {
  let p = parsers.get(maxDepth);
  if (!p) {
    p = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      processEntities: false,
      htmlEntities: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      cdataPropName: '#cdata',
      maxNestedTags: maxDepth,
    });
    parsers.set(maxDepth, p);
  }
  return p;
}

const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;

/** Parses a whole document and returns its root element. Throws WireError on anything unsafe or malformed. */
export function parseXml(text: string, limits: XmlLimits = DEFAULT_LIMITS): XmlElement {
  if (text.length > limits.maxChars) {
    throw new WireError('too-large', `The XML document is larger than ${limits.maxChars} characters.`);
  }
  if (DOCTYPE.test(text)) {
    throw new WireError('doctype-forbidden', 'A DOCTYPE or entity declaration is not allowed.');
  }
  // The parser lets a raw NUL or other control character through; XML 1.0 does not.
  if (hasForbiddenXmlChar(text)) {
    throw new WireError('malformed-xml', 'Malformed XML: the document holds a character XML does not allow (a control character).');
  }
  const checked = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (checked !== true) {
    throw new WireError(
      'malformed-xml',
      `Malformed XML at line ${checked.err.line}, column ${checked.err.col}: ${checked.err.msg}`,
    );
  }
  let ordered: OrderedNode[];
  try {
    ordered = parserFor(limits.maxDepth).parse(text) as OrderedNode[];
  } catch (e) {
    if (e instanceof Error && /nested/i.test(e.message)) {
      throw new WireError('too-deep', `The XML document nests deeper than ${limits.maxDepth} elements.`);
    }
    throw new WireError('malformed-xml', 'Malformed XML.');
  }
  const roots = ordered.filter((n) => elementName(n) !== null);
  if (roots.length !== 1) throw new WireError('malformed-xml', 'Malformed XML: the document needs exactly one root element.');
  return convert(roots[0]!, new Map([['xml', XML_NS]]), 1, limits.maxDepth);
}

function elementName(node: OrderedNode): string | null {
  for (const key of Object.keys(node)) {
    if (key !== ':@' && key !== '#text' && key !== '#cdata') return key;
  }
  return null;
}

function splitName(qname: string): [prefix: string, local: string] {
  const i = qname.indexOf(':');
  return i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

function convert(node: OrderedNode, scope: Map<string, string>, depth: number, maxDepth: number): XmlElement {
  if (depth > maxDepth) throw new WireError('too-deep', `The XML document nests deeper than ${maxDepth} elements.`);
  const qname = elementName(node)!;
  const rawAttrs = node[':@'] ?? {};
  let inner = scope;
  for (const [name, value] of Object.entries(rawAttrs)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (inner === scope) inner = new Map(scope);
      inner.set(name === 'xmlns' ? '' : name.slice(6), decodeReferences(value));
    }
  }
  const resolve = (prefix: string, isAttr: boolean): string => {
    if (prefix === '' && isAttr) return '';
    const ns = inner.get(prefix);
    if (ns === undefined) {
      if (prefix === '') return '';
      throw new WireError('malformed-xml', `Malformed XML: the prefix ${JSON.stringify(prefix)} is not declared.`);
    }
    return ns;
  };
  const attrs: XmlAttribute[] = [];
  for (const [name, value] of Object.entries(rawAttrs)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const [prefix, local] = splitName(name);
    attrs.push({ local, ns: resolve(prefix, true), value: decodeReferences(value) });
  }
  const [prefix, local] = splitName(qname);
  const children: XmlElement[] = [];
  let text = '';
  for (const child of node[qname] as OrderedNode[]) {
    if ('#text' in child) text += decodeReferences(String(child['#text']));
    else if ('#cdata' in child) {
      for (const part of child['#cdata'] as OrderedNode[]) text += String(part['#text'] ?? '');
    } else if (elementName(child) !== null) children.push(convert(child, inner, depth + 1, maxDepth));
  }
  return { local, ns: resolve(prefix, false), attrs, children, text };
}

/** The first child with a local name, in any namespace. */
export function childNamed(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local);
}

export function childrenNamed(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local);
}

/** `xsi:nil="true"` (or "1"); the prefix may be any bound to the XSI namespace. */
export function isNil(el: XmlElement): boolean {
  return el.attrs.some((a) => a.local === 'nil' && a.ns === XSI_NS && (a.value.trim() === 'true' || a.value.trim() === '1'));
}
