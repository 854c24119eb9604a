/**
 * The cells of an imported CSV as values: dates, numbers, currencies and yes/no the way people and
 * spreadsheets write them in English and Czech. Each reader returns the value in the app's canonical
 * form or throws a ValueProblem saying, for the user, what is wrong with the text.
 */
import { AppError } from '../../../src-shared/app-api/errors';
import type { DecimalMark } from '../../../src-shared/csv-dialect';
import { formatDecimal, KNOWN_CURRENCIES, parseDecimal } from '../../../src-shared/money';
import { parse, v, ValidationError } from '../../../src-shared/validate';

type ValueCode =
  'importNotDate' | 'importNotRealDate' | 'importNotNumber' | 'importNotWholeNumber' | 'importUnknownCurrency' | 'importNotYesNo';

/** A cell that cannot be read as its field's value: the code of what it is not, with the text as it was (quoted). */
export class ValueProblem extends AppError<ValueCode> {
  override name = 'ValueProblem';
  constructor(code: ValueCode, text: string) {
    super(code, { value: show(text.trim()) });
  }
}

const show = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
const pad = (n: string) => n.padStart(2, '0');
const dateTimeSchema = v.dateTime();

/**
 * `YYYY-MM-DD[ HH:mm[:ss]]`, `YYYY-MM-DDTHH:mm[:ss]` or the Czech `D.M.YYYY[ H:mm[:ss]]` (spaces
 * after the points allowed), as a wall-clock dateTime `YYYY-MM-DDTHH:mm:ss`.
 */
export function readDate(text: string): string {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  const czech = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  const parts = iso
    ? [iso[1]!, iso[2]!, iso[3]!, iso[4], iso[5], iso[6]]
    : czech
      ? [czech[3]!, czech[2]!, czech[1]!, czech[4], czech[5], czech[6]]
      : null;
  if (!parts) throw new ValueProblem('importNotDate', s);
  const [y, mo, d, h = '0', mi = '00', sec = '00'] = parts as [string, string, string, string?, string?, string?];
  try {
    return parse(dateTimeSchema, `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${mi}:${sec}`);
  } catch (e) {
    if (e instanceof ValidationError) throw new ValueProblem('importNotRealDate', s);
    throw e;
  }
}

/**
 * A decimal number as canonical text. Spaces between digits group thousands. With both marks in one value,
 * the last one is the decimal mark and the other groups thousands; otherwise the file's mark decides
 * (`detectDecimalMark` of csv-reader.ts): with the comma, commas are decimal; with the point, commas group
 * (1,500 is a thousand and a half beside 40.5); undecided (null), one comma is decimal, more group.
 */
export function readNumber(text: string, mark: DecimalMark | null): string {
  const s = text.trim().replace(/(?<=\d)[ \u00A0\u202F](?=\d)/g, '');
  const commas = s.split(',').length - 1;
  const points = s.split('.').length - 1;
  let decimal: ',' | '.';
  if (commas > 0 && points > 0) decimal = s.lastIndexOf(',') > s.lastIndexOf('.') ? ',' : '.';
  else if (commas > 0) decimal = mark === ',' || (mark === null && commas === 1) ? ',' : '.';
  else decimal = '.';
  const group = decimal === ',' ? '.' : ',';
  const g = group === '.' ? '\\.' : ',';
  const d = decimal === '.' ? '\\.' : ',';
  const shape = new RegExp(`^-?(\\d+|\\d{1,3}(${g}\\d{3})+)(${d}\\d+)?$`);
  if (!shape.test(s)) throw new ValueProblem('importNotNumber', text);
  const plain = s.split(group).join('').replace(decimal, '.');
  const value = parseDecimal(plain);
  if (!value) throw new ValueProblem('importNotNumber', text);
  return formatDecimal(value);
}

/** A whole number such as kilometres on the odometer ("120 500" too). */
export function readWholeNumber(text: string, mark: DecimalMark | null): number {
  const n = readNumber(text, mark);
  if (!/^-?\d+$/.test(n) || !Number.isSafeInteger(Number(n))) throw new ValueProblem('importNotWholeNumber', text);
  return Number(n);
}

const CURRENCY_ALIASES: Record<string, number> = { KČ: 203, KC: 203, '€': 978, $: 840 };

/**
 * An ISO 4217 numeric code (203) or alphabetic one (CZK), for currencies the app knows; or `#999`, how
 * the app's own export writes a code it has no letters for.
 */
export function readCurrency(text: string): number {
  const s = text.trim().toUpperCase();
  const own = /^#(\d{1,3})$/.exec(s);
  if (own && Number(own[1]) > 0) return Number(own[1]);
  const found = /^\d{1,3}$/.test(s)
    ? KNOWN_CURRENCIES.find((c) => c.numeric === Number(s))
    : (KNOWN_CURRENCIES.find((c) => c.code === s) ?? (CURRENCY_ALIASES[s] ? { numeric: CURRENCY_ALIASES[s] } : undefined));
  if (!found) throw new ValueProblem('importUnknownCurrency', text);
  return found.numeric;
}

const YES = new Set(['yes', 'y', 'true', '1', 'ano', 'a', 'x', 'partial', 'castecne', 'castecna']);
const NO = new Set(['no', 'n', 'false', '0', 'ne', 'full', 'plna', 'plne', '']);

/** Lower case without diacritics: "Částečné" and "castecne" read the same. */
export const plainText = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** Whether a refueling was a partial fill: yes/no, true/false, 1/0, ano/ne, x, partial. */
export function readFlag(text: string): boolean {
  const s = plainText(text);
  if (YES.has(s)) return true;
  if (NO.has(s)) return false;
  throw new ValueProblem('importNotYesNo', text);
}
