/**
 * The import of refuelings from CSV: a preview that reads every row the way the app's own form would
 * take it (the same schema, the same checks as a refueling entered by hand), finds the rows already in
 * the local copy or earlier in the file, and then the import, which queues the ready rows as new
 * refuelings in one transaction: all of them, or none.
 */
import {
  AppError,
  importFieldWords,
  WRITE_INPUT_SCHEMAS,
  type ImportProblem,
  type ImportField,
  type ImportMapping,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
  type InputOf,
  type RefuelingInput,
} from '../../../src-shared/app-api';
import type { DecimalMark } from '../../../src-shared/csv-dialect';
import { fallbackOf, type FieldSpec, type FieldType } from '../../../src-shared/records/fields';
import { REFUELING, type RefuelingLocals, type RefuelingWrite } from '../../../src-shared/records/refueling';
import { fieldRules, parse, ValidationError } from '../../../src-shared/validate';
import type { CoreParts, Handlers } from '../app/core-parts';
import { refuelingProblems, touchedBy } from '../write-kinds';
import { CsvError, detectDecimalMark, readCsv, type CsvRecord, type CsvTable } from './csv-reader';
import { checkMapping, guessMapping, IMPORT_FIELDS, REQUIRED_FIELDS } from './import-mapping';
import { readCurrency, readDate, readFlag, readNumber, readWholeNumber, ValueProblem } from './import-values';

type ImportInput = InputOf<'previewRefuelingImport'>;

/** The fields a refueling is written with (those sent and the marks): the schema checks each of them. */
const WRITTEN: readonly (keyof RefuelingInput)[] = [...REFUELING.sent, ...REFUELING.local];

/**
 * A value that passes a field's rule, put in place of one the schema refused so that the next problem shows
 * too: the field's fallback, else the least its limits allow (a zero clamped into them, an empty text, the
 * import's currency). test/files checks that each passes.
 */
export function passingValue(spec: FieldSpec, currency: number): unknown {
  const fallback = fallbackOf(spec);
  if (fallback !== undefined) return fallback;
  const rules = spec.input ? fieldRules(spec.input) : {};
  switch (spec.type) {
    case 'flag':
      return false;
    case 'text':
      return 'x'.repeat(rules.minLength ?? 0);
    case 'dateTime':
      return '2000-01-01T00:00:00';
    case 'date':
      return '2000-01-01';
    case 'decimal':
      return rules.positive ? '1' : '0';
    case 'currency':
      return currency;
    case 'id':
    case 'integer':
      return Math.min(Math.max(0, rules.min ?? 0), rules.max ?? 0);
  }
}

/** The same refueling as far as the user can tell: the same minute, odometer and litres. */
const sameFillKey = (r: { dateOfPurchase: string; tachometer: number; liter: string }) =>
  `${r.dateOfPurchase.slice(0, 16)}|${r.tachometer}|${r.liter}`;

class RowReader {
  readonly problems: ImportProblem[] = [];

  constructor(
    private readonly record: CsvRecord,
    private readonly header: readonly string[],
    private readonly mapping: ImportMapping,
    private readonly decimalMark: DecimalMark | null,
  ) {}

  /** A problem of a field, placed in the column that holds it (or in none, when no column is mapped to it). */
  add(field: ImportField | keyof RefuelingInput, error: { code: ImportProblem['code']; params: ImportProblem['params'] }): void {
    const index = this.mapping[field as ImportField];
    const column = index === undefined ? null : { index, name: this.header[index] || null };
    this.problems.push({ code: error.code, params: error.params, field, column });
  }

  /** The field's cell, trimmed; undefined when no column is mapped to it or the cell is empty. */
  private cell(field: ImportField): string | undefined {
    const column = this.mapping[field];
    if (column === undefined) return undefined;
    const text = (this.record.cells[column] ?? '').trim();
    return text === '' ? undefined : text;
  }

  /** Reads a field's cell; a missing required value or one that cannot be read becomes a problem. */
  read<T>(field: ImportField, parse: (text: string) => T, fallback?: T): T | undefined {
    const text = this.cell(field);
    if (text === undefined) {
      if (fallback === undefined) this.add(field, { code: 'importMissing', params: { field, words: importFieldWords(field) } });
      return fallback;
    }
    try {
      return parse(text);
    } catch (e) {
      if (!(e instanceof ValueProblem)) throw e;
      this.add(field, e);
      return undefined;
    }
  }

  number = (text: string) => readNumber(text, this.decimalMark);
  wholeNumber = (text: string) => readWholeNumber(text, this.decimalMark);
}

/** How a cell becomes a value of a field's type. */
const READERS: Record<FieldType, (row: RowReader) => (text: string) => unknown> = {
  id: (row) => row.wholeNumber,
  integer: (row) => row.wholeNumber,
  decimal: (row) => row.number,
  currency: () => readCurrency,
  dateTime: () => readDate,
  date: () => (text) => readDate(text).slice(0, 10),
  flag: () => readFlag,
  text: () => (text) => text,
};

/** The fields read as numbers: their cells tell the file's decimal mark. */
const NUMBER_FIELDS = IMPORT_FIELDS.filter((f) => ['id', 'integer', 'decimal'].includes(REFUELING.fields[f].type));

/** The decimal mark of the file's numbers (csv-reader.ts `detectDecimalMark`), from the cells of the columns mapped to numbers. */
function decimalMarkOf(table: CsvTable, mapping: ImportMapping) {
  const columns = NUMBER_FIELDS.map((f) => mapping[f]).filter((c) => c !== undefined);
  return detectDecimalMark(
    table.delimiter,
    table.rows.flatMap((r) => columns.map((c) => r.cells[c] ?? '')),
  );
}

/** A row as the refueling it becomes (each field of its table a column can hold), checked by the app's own schema and the service's rules. */
function readRow(
  record: CsvRecord,
  table: { header: string[]; decimalMark: DecimalMark | null },
  mapping: ImportMapping,
  input: ImportInput,
  parts: CoreParts,
) {
  const row = new RowReader(record, table.header, mapping, table.decimalMark);
  // Every spreadsheet writes every cell of a row: another count means its cells are not where the header says.
  if (record.cells.length !== table.header.length) {
    const problem = { code: 'importCellCount' as const, params: { cells: record.cells.length, columns: table.header.length } };
    return { refueling: null, problems: [{ ...problem, column: null }] };
  }
  const fields: Record<string, unknown> = { carId: input.carId };
  for (const k of IMPORT_FIELDS) {
    const spec: FieldSpec = REFUELING.fields[k];
    // Rows without a currency column are in the currency the import was given; an optional field's cell may be empty.
    const fallback = k === 'currency' ? input.currency : fallbackOf(spec);
    fields[k] = row.read(k, READERS[spec.type](row), fallback);
  }
  if (row.problems.length > 0) return { refueling: null, problems: row.problems };

  let candidate = fields as unknown as RefuelingInput;
  let refueling: RefuelingInput | null = null;
  for (let guard = 0; guard < WRITTEN.length && refueling === null; guard++) {
    try {
      refueling = parse(WRITE_INPUT_SCHEMAS.addRefueling, candidate, 'row');
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      const field = e.path.slice('row.'.length) as keyof RefuelingInput;
      row.add(field, e);
      candidate = { ...candidate, [field]: passingValue(REFUELING.fields[field], input.currency) };
    }
  }
  // Fields the schema refused now hold passing values: the rules speak of the others.
  for (const p of refuelingProblems(candidate, parts.store.cars.list())) row.add(p.field, p.error);
  const ready =
    row.problems.length > 0 || !refueling ? null : ({ ...REFUELING.localDefaults, ...refueling } as RefuelingWrite & RefuelingLocals);
  return { refueling: ready, problems: row.problems };
}

export function previewImport(parts: CoreParts, input: ImportInput): ImportPreview {
  if (!parts.store.cars.list().some((c) => c.carId === input.carId)) {
    throw new AppError('carNotListed', { carId: input.carId }, 'carId');
  }
  let table;
  try {
    table = readCsv(input.content);
  } catch (e) {
    if (e instanceof CsvError) throw e.withField('content');
    throw e;
  }
  const mapping = input.mapping ? checkMapping(input.mapping, table.header) : guessMapping(table.header);
  const unmapped = REQUIRED_FIELDS.filter((f) => mapping[f] === undefined).map((f): ImportProblem => ({
    code: 'importNoColumn',
    params: { field: f, words: importFieldWords(f) },
    field: f,
    column: null,
  }));

  const decimalMark = decimalMarkOf(table, mapping);
  const read = { header: table.header, decimalMark };
  const existing = new Map(parts.view.refuelings(input.carId).map((r) => [sameFillKey(r), r.id]));
  const earlier = new Map<string, number>();
  const rows: ImportRow[] = table.rows.map((record) => {
    if (unmapped.length > 0) return { line: record.line, refueling: null, problems: unmapped, duplicateOf: null };
    const { refueling, problems } = readRow(record, read, mapping, input, parts);
    let duplicateOf: ImportRow['duplicateOf'] = null;
    if (refueling) {
      const key = sameFillKey(refueling);
      const id = existing.get(key);
      const line = earlier.get(key);
      if (id !== undefined) duplicateOf = { id, line: null };
      else if (line !== undefined) duplicateOf = { id: null, line };
      else earlier.set(key, record.line);
    }
    return { line: record.line, refueling, problems, duplicateOf };
  });

  return {
    carId: input.carId,
    delimiter: table.delimiter,
    bom: table.bom,
    decimalMark,
    header: table.header,
    mapping,
    rows,
    counts: {
      rows: rows.length,
      ready: rows.filter((r) => r.refueling !== null && r.duplicateOf === null).length,
      problems: rows.filter((r) => r.problems.length > 0).length,
      duplicates: rows.filter((r) => r.duplicateOf !== null).length,
    },
  };
}

export async function importRefuelings(parts: CoreParts, input: ImportInput): Promise<ImportResult> {
  parts.assertIdle();
  const preview = previewImport(parts, input);
  const ready = preview.rows.filter((r) => r.refueling !== null && r.duplicateOf === null);
  if (ready.length === 0) {
    const { rows, problems, duplicates } = preview.counts;
    throw new AppError('nothingToImport', { rows, problems, duplicates }, 'content');
  }
  parts.store.transaction(() => {
    for (const row of ready) {
      try {
        parts.writes.queue('addRefueling', row.refueling!);
      } catch (e) {
        if (e instanceof AppError) throw new AppError('importLineRefused', { line: row.line, reason: e.message }, e.field);
        throw e;
      }
    }
  });
  await parts.changed(touchedBy('addRefueling'));
  return { queued: ready.length, skipped: preview.rows.length - ready.length };
}

export function importHandlers(parts: CoreParts): Handlers<'previewRefuelingImport' | 'importRefuelings'> {
  return {
    previewRefuelingImport: async (input) => previewImport(parts, input),
    importRefuelings: (input) => importRefuelings(parts, input),
  };
}
