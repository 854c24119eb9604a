/**
 * Safe XML reading on saxes, a strict XML 1.0 parser with namespaces: size and DOCTYPE are checked
 * first, depth while reading, no entity is ever expanded beyond XML's own five and character references,
 * and the result is a small namespace-aware tree, so that callers match elements by local name whatever
 * prefix (or none) a writer chose.
 *
 * One pass, no intermediate tree: saxes checks well-formedness (matching tags, one root, unique and
 * quoted attributes, declared prefixes, the characters XML allows) while the tree is built from its events.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { WireError } from './errors';
import { hasForbiddenXmlChar } from './xml-text';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

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
  /** The namespaces this element declares, by prefix ('' the default one); absent when it declares none. */
  readonly declares?: Readonly<Record<string, string>>;
}

export interface XmlLimits {
  /** Largest document, in UTF-16 code units. */
  maxChars: number;
  /** Deepest element nesting. */
  maxDepth: number;
}

export const DEFAULT_LIMITS: XmlLimits = { maxChars: 32 * 1024 * 1024, maxDepth: 64 };

const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;
const NO_ATTRS: readonly XmlAttribute[] = [];

interface Building {
  local: string;
  ns: string;
  attrs: readonly XmlAttribute[];
  children: XmlElement[];
  text: string;
  declares?: Record<string, string>;
}

/** A saxes message reads "line:column: what"; the fault says it in words. */
function malformed(e: unknown): WireError {
  const m = /^(\d+):(\d+): (.*)$/s.exec(e instanceof Error ? e.message : String(e));
  return new WireError('malformed-xml', m ? `Malformed XML: line ${m[1]}, column ${m[2]}: ${m[3]}` : 'Malformed XML.');
}

/** What the handlers of a reader fill in while one document is read. */
interface Reading {
  open: Building[];
  root: Building | undefined;
  tooDeep: boolean;
  maxDepth: number;
}

/**
 * A saxes parser with its handlers, reused from one document to the next: making one (its state table,
 * options and four handlers) was a tenth of reading a request. saxes starts itself over at the end of
 * every document it closes; a parser that failed midway is dropped and a new one made.
 */
class Reader {
  // XML 1.0 whatever the declaration says: 1.1 would admit control characters as references.
  readonly parser = new SaxesParser({ xmlns: true, forceXMLVersion: true, defaultXMLVersion: '1.0' });
  reading: Reading = { open: [], root: undefined, tooDeep: false, maxDepth: 0 };

  constructor() {
    this.parser.on('opentag', (tag: SaxesTagNS) => {
      const r = this.reading;
      if (r.open.length >= r.maxDepth) {
        r.tooDeep = true;
        throw new WireError('too-deep', `The XML document nests deeper than ${r.maxDepth} elements.`);
      }
      let attrs = NO_ATTRS;
      let declares: Record<string, string> | undefined;
      for (const name in tag.attributes) {
        const a = tag.attributes[name]!;
        if (a.uri === XMLNS_NS) {
          // Kept for the few values that are names in a namespace (a SOAP 1.2 fault's Subcode).
          (declares ??= {})[a.prefix === '' ? '' : a.local] = a.value;
          continue;
        }
        if (attrs === NO_ATTRS) attrs = [];
        (attrs as XmlAttribute[]).push({ local: a.local, ns: a.uri, value: a.value });
      }
      const el: Building = { local: tag.local, ns: tag.uri, attrs, children: [], text: '' };
      if (declares) el.declares = declares;
      const parent = r.open[r.open.length - 1];
      if (parent) parent.children.push(el);
      else r.root = el;
      r.open.push(el);
    });
    this.parser.on('closetag', () => {
      this.reading.open.pop();
    });
    const onText = (t: string) => {
      const open = this.reading.open;
      const current = open[open.length - 1];
      if (current) current.text += t;
    };
    this.parser.on('text', onText);
    this.parser.on('cdata', onText);
  }
}

/** The reader ready for the next document; undefined while one is read (or after one failed). */
let idle: Reader | undefined;

/** Parses a whole document and returns its root element. Throws WireError on anything unsafe or malformed. */
export function parseXml(text: string, limits: XmlLimits = DEFAULT_LIMITS): XmlElement {
  if (text.length > limits.maxChars) {
    throw new WireError('too-large', `The XML document is larger than ${limits.maxChars} characters.`);
  }
  if (DOCTYPE.test(text)) {
    throw new WireError('doctype-forbidden', 'A DOCTYPE or entity declaration is not allowed.');
  }
  // saxes refuses these too, but this says which rule was broken.
  if (hasForbiddenXmlChar(text)) {
    throw new WireError('malformed-xml', 'Malformed XML: the document holds a character XML does not allow (a control character).');
  }
  const reader = idle ?? new Reader();
  idle = undefined;
  const reading: Reading = { open: [], root: undefined, tooDeep: false, maxDepth: limits.maxDepth };
  reader.reading = reading;
  try {
    reader.parser.write(text).close();
  } catch (e) {
    // The parser stopped midway: it is not used again.
    if (e instanceof WireError) throw e;
    if (reading.tooDeep) throw new WireError('too-deep', `The XML document nests deeper than ${limits.maxDepth} elements.`);
    throw malformed(e);
  }
  // Closed, saxes has started itself over: ready for the next document.
  idle = reader;
  if (!reading.root) throw new WireError('malformed-xml', 'Malformed XML: the document needs exactly one root element.');
  return reading.root;
}

/** The first child with a local name, in any namespace. */
export function childNamed(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local);
}

export function childrenNamed(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local);
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/**
 * A value that is a name in a namespace (xs:QName, "prefix:local"), resolved where it stands: `path` is the
 * element that holds it and its ancestors, innermost first. Null when its prefix is declared nowhere there.
 */
export function resolveQName(value: string, path: readonly XmlElement[]): { ns: string; local: string } | null {
  const text = value.trim();
  const colon = text.indexOf(':');
  const [prefix, local] = colon < 0 ? ['', text] : [text.slice(0, colon), text.slice(colon + 1)];
  if (prefix === 'xml') return { ns: XML_NS, local };
  for (const el of path) {
    const ns = el.declares?.[prefix];
    if (ns !== undefined) return { ns, local };
  }
  return prefix === '' ? { ns: '', local } : null;
}

/** `xsi:nil="true"` (or "1"); the prefix may be any bound to the XSI namespace. */
export function isNil(el: XmlElement): boolean {
  return el.attrs.some((a) => a.local === 'nil' && a.ns === XSI_NS && (a.value.trim() === 'true' || a.value.trim() === '1'));
}
