/**
 * The content of a `...Result` element (or of the `apiResult...` root of GET/POST), both ways, driven
 * by the catalog's result shapes. Writing is plain string building: it is on the service's hot path.
 */
import {
  CATEGORY_FIELDS,
  CATEGORY_RECORD,
  CATEGORY_TREE_LISTS,
  FLAT_RECORDS,
  TRANSFER_PAIR_ELEMENTS,
  type ApiCategory,
  type ApiCategoryTree,
  type FieldList,
  type FlatRecordName,
  type ResultShape,
  type WireType,
} from '../catalog';
import { WireError } from './errors';
import { readValue, writeValue, type ReadOptions } from './values';
import { escapeText } from './xml-text';
import { childNamed, isNil, type XmlElement } from './xml-tree';

// ---- writing ---------------------------------------------------------------------------------

/** A field as it is written: its tags made once. */
interface FieldWriter {
  name: string;
  type: WireType;
  open: string;
  close: string;
  empty: string;
}

const writers = new WeakMap<FieldList, FieldWriter[]>();
function writersOf(fields: FieldList): FieldWriter[] {
  let w = writers.get(fields);
  if (!w) {
    w = fields.map((f) => ({ name: f.name, type: f.type, open: `<${f.name}>`, close: `</${f.name}>`, empty: `<${f.name} />` }));
    writers.set(fields, w);
  }
  return w;
}

/**
 * The fields of one record, appended to `out`. Only strings need escaping: the text writeValue makes
 * of a number, boolean or wall-clock dateTime holds no character XML treats specially. The subject
 * naming the field in an error is built only when there is one (this runs for every field of every
 * record answered).
 */
function writeFields(out: string, fields: FieldList, record: Record<string, unknown>, recordName: string): string {
  for (const f of writersOf(fields)) {
    let text: string;
    try {
      text = writeValue(f.type, record[f.name], f.name);
    } catch {
      // The same refusal again, now naming the record too.
      text = writeValue(f.type, record[f.name], `${recordName}.${f.name}`);
    }
    out += text === '' ? f.empty : f.open + (f.type === 'string' ? escapeText(text) : text) + f.close;
  }
  return out;
}

/** Where an unchanging record (or list of records) keeps the XML written of it, per record name. */
const WRITTEN = Symbol('written');
type Unchanging = { [WRITTEN]?: Record<string, string> };

/**
 * Declares that a record, or a list of records, will never change again (it is frozen): its XML is then
 * written once and kept with it, so that a service answering the same records again and again builds
 * each once.
 */
export function unchanging<T extends object>(record: T): Readonly<T> {
  Object.defineProperty(record, WRITTEN, { value: {} });
  return Object.freeze(record);
}

function writeRecord(fields: FieldList, record: Record<string, unknown>, recordName: string): string {
  const written = (record as Unchanging)[WRITTEN];
  if (written === undefined) return writeFields(`<${recordName}>`, fields, record, recordName) + `</${recordName}>`;
  // Kept as one flat string: a string built piece by piece is a tree of pieces, walked again each
  // time an answer holding it is encoded.
  return (written[recordName] ??= flatten(writeFields(`<${recordName}>`, fields, record, recordName) + `</${recordName}>`));
}

/** The same text; reading a character makes V8 flatten a string built piece by piece in place. */
function flatten(text: string): string {
  text.charCodeAt(0);
  return text;
}

function writeRecords(name: string, records: readonly Record<string, unknown>[], fields: FieldList, recordName: string): string {
  if (records.length === 0) return `<${name} />`;
  // An unchanging list of records writes the same text every time: kept with it, whole.
  const written = (records as Unchanging)[WRITTEN];
  const kind = written === undefined ? '' : `${name} ${recordName}`;
  if (written?.[kind] !== undefined) return written[kind];
  let out = `<${name}>`;
  for (const r of records) out += writeRecord(fields, r, recordName);
  out += `</${name}>`;
  if (written !== undefined) written[kind] = flatten(out);
  return out;
}

function writeCategory(c: ApiCategory): string {
  let out = writeFields(`<${CATEGORY_RECORD}>`, CATEGORY_FIELDS, c as unknown as Record<string, unknown>, CATEGORY_RECORD);
  out +=
    c.ChildCategories === null ? '<ChildCategories xsi:nil="true" />' : writeList('ChildCategories', c.ChildCategories.map(writeCategory));
  return out + `</${CATEGORY_RECORD}>`;
}

function writeList(name: string, items: string[]): string {
  return items.length === 0 ? `<${name} />` : `<${name}>${items.join('')}</${name}>`;
}

export function writeResultContent(shape: ResultShape, result: unknown): string {
  switch (shape.kind) {
    case 'list':
      return writeRecords('Data', result as Record<string, unknown>[], FLAT_RECORDS[shape.record].fields, shape.record);
    case 'single':
      return writeFields('<Data>', FLAT_RECORDS[shape.record].fields, result as Record<string, unknown>, shape.record) + '</Data>';
    case 'categoryTree': {
      const tree = result as ApiCategoryTree;
      return `<Data>${CATEGORY_TREE_LISTS.map((l) => writeList(l, tree[l].map(writeCategory))).join('')}</Data>`;
    }
    case 'transferPair': {
      const fields = FLAT_RECORDS.apiTransaction2.fields;
      const pair = result as Record<string, Record<string, unknown>>;
      return TRANSFER_PAIR_ELEMENTS.map((e) => writeFields(`<${e}>`, fields, pair[e]!, e) + `</${e}>`).join('');
    }
  }
}

// ---- reading ---------------------------------------------------------------------------------

const DEFAULTS: Record<WireType, unknown> = {
  long: 0,
  double: 0,
  boolean: false,
  string: '',
  // What a .NET client holds for a dateTime it never received.
  dateTime: '0001-01-01T00:00:00',
};

function missing(subject: string): WireError {
  return new WireError('missing-element', `The response lacks ${subject}.`, subject);
}

/** Reads one flat record; missing or nil fields take the type's default unless the catalog requires them. */
function readFields(
  el: XmlElement,
  fields: FieldList,
  required: readonly string[],
  recordName: string,
  options: ReadOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const child = childNamed(el, f.name);
    const subject = `${recordName}.${f.name}`;
    if (!child || isNil(child)) {
      if (required.includes(f.name)) throw missing(subject);
      out[f.name] = DEFAULTS[f.type];
    } else {
      if (child.children.length > 0) throw new WireError('invalid-value', `${subject} must be a simple value.`, subject);
      out[f.name] = readValue(f.type, child.text, subject, options);
    }
  }
  return out;
}

function readFlat(el: XmlElement, record: FlatRecordName, options: ReadOptions, subject: string = record) {
  const spec = FLAT_RECORDS[record];
  return readFields(el, spec.fields, spec.required, subject, options);
}

/** Items of a list element with the given item name; nil items carry nothing and are skipped. */
function listItems(list: XmlElement | undefined, itemName: string): XmlElement[] {
  if (!list || isNil(list)) return [];
  return list.children.filter((c) => c.local === itemName && !isNil(c));
}

function readCategory(el: XmlElement, options: ReadOptions): ApiCategory {
  const base = readFields(el, CATEGORY_FIELDS, ['Id'], CATEGORY_RECORD, options);
  const children = childNamed(el, 'ChildCategories');
  return {
    Id: base.Id as number,
    Name: base.Name as string,
    ChildCategories: !children || isNil(children) ? null : listItems(children, CATEGORY_RECORD).map((c) => readCategory(c, options)),
  };
}

/** Reads the content of a result element (SOAP `...Result`, or the GET/POST root) into its typed value. */
export function readResultContent(shape: ResultShape, resultEl: XmlElement, options: ReadOptions): unknown {
  switch (shape.kind) {
    case 'list':
      // ASMX leaves `Data` out when the list is null: read that as empty.
      return listItems(childNamed(resultEl, 'Data'), shape.record).map((item) => readFlat(item, shape.record, options));
    case 'single': {
      const data = childNamed(resultEl, 'Data');
      if (!data || isNil(data)) throw missing('Data');
      return readFlat(data, shape.record, options);
    }
    case 'categoryTree': {
      const data = childNamed(resultEl, 'Data');
      if (!data || isNil(data)) throw missing('Data');
      const tree: Record<string, ApiCategory[]> = {};
      for (const list of CATEGORY_TREE_LISTS) {
        tree[list] = listItems(childNamed(data, list), CATEGORY_RECORD).map((c) => readCategory(c, options));
      }
      return tree;
    }
    case 'transferPair': {
      const pair: Record<string, unknown> = {};
      for (const name of TRANSFER_PAIR_ELEMENTS) {
        const el = childNamed(resultEl, name);
        if (!el || isNil(el)) throw missing(name);
        pair[name] = readFlat(el, 'apiTransaction2', options, name);
      }
      return pair;
    }
  }
}
