/**
 * A car's other costs as CSV: the export writes the cost's field table's columns through the same writer as
 * the refuelings' export (writeCsv), beside them the car's name; the import reads such a file (or one of
 * the spreadsheet's, its columns found by the table's header names in English and Czech) through the same
 * reader (readCsv) and value readers as the refueling import, checks every row as a cost typed by hand
 * would be, and adds them all in one transaction, or none when any row cannot be read.
 */
import { APP_METHODS, AppError, type CsvFile, type InputOf } from '../../../src-shared/app-api';
import type { DecimalMark } from '../../../src-shared/csv-dialect';
import { CAR_COST, CAR_COST_KINDS, type CarCostKind, type CarCostStored, type CarCostWrite } from '../../../src-shared/records/car-cost';
import type { CsvSpec, FieldSpec } from '../../../src-shared/records/fields';
import { parse, ValidationError } from '../../../src-shared/validate';
import type { CoreParts, Handlers } from '../app/core-parts';
import { carCostProblem } from '../cars/handlers';
import { detectDecimalMark, readCsv, type CsvRecord, type CsvTable } from './csv-reader';
import { dialectOf, writeCsv } from './csv-writer';
import { recordColumns } from './exports';
import { headerKey } from './import-mapping';
import { plainText, readCurrency, readDate, readNumber, readWholeNumber, ValueProblem } from './import-values';

type ExportedCost = CarCostStored & { carName: string };

const COST_COLUMNS = recordColumns<typeof CAR_COST.fields, ExportedCost>(CAR_COST.fields, {
  carId: { header: 'car_name', value: (c) => c.carName },
});

/** The kinds as a spreadsheet may name them: the export's own names, and Czech ones (folded). */
const KIND_NAMES: Record<string, CarCostKind> = {
  ...Object.fromEntries(CAR_COST_KINDS.map((k) => [k.toLowerCase(), k])),
  servis: 'service',
  udrzba: 'service',
  pneumatiky: 'tyres',
  pneu: 'tyres',
  tires: 'tyres',
  pojisteni: 'insurance',
  myto: 'tolls',
  'dalnicni znamka': 'tolls',
  'dalnicni znamky': 'tolls',
  vignette: 'tolls',
  parkovani: 'parking',
  parkovne: 'parking',
  oprava: 'repairs',
  opravy: 'repairs',
  repair: 'repairs',
  ostatni: 'other',
  jine: 'other',
};

function readKind(text: string): string {
  // An unknown kind is handed on as it is: the schema refuses it with its own words.
  return KIND_NAMES[plainText(text)] ?? text.trim();
}

/** The imported fields, and how a cell of each becomes its value. */
type Reader = (text: string, mark: DecimalMark | null) => unknown;
const READERS: Partial<Record<keyof CarCostWrite, Reader>> = {
  date: (t) => readDate(t).slice(0, 10),
  kind: readKind,
  odometer: (t, mark) => readWholeNumber(t, mark),
  amount: (t, mark) => readNumber(t, mark),
  currency: readCurrency,
  rate: (t, mark) => readNumber(t, mark),
  note: (t) => t,
};
const IMPORTED = CAR_COST.imported as (keyof CarCostWrite & keyof typeof READERS)[];

/** Each imported field's column, by the table's header names; a required one missing is an error. */
function columnsOf(header: readonly string[]): Partial<Record<keyof CarCostWrite, number>> {
  const keys = header.map(headerKey);
  const out: Partial<Record<keyof CarCostWrite, number>> = {};
  for (const field of IMPORTED) {
    const csv = (CAR_COST.fields[field] as FieldSpec).csv as CsvSpec;
    const index = keys.findIndex((k) => (csv.names ?? []).includes(k));
    if (index >= 0) out[field] = index;
    else if (csv.required) {
      throw new AppError('importNoColumn', { field, words: (CAR_COST.fields[field] as FieldSpec).words ?? field }, 'content');
    }
  }
  return out;
}

/** One row as the cost it becomes, checked as one typed by hand; a row that cannot be is the import's error. */
function readRow(
  parts: CoreParts,
  record: CsvRecord,
  columns: Partial<Record<keyof CarCostWrite, number>>,
  i: InputOf<'importCarCosts'>,
  mark: DecimalMark | null,
) {
  const given: Record<string, unknown> = { carId: i.carId, currency: i.currency };
  try {
    for (const field of IMPORTED) {
      const text = columns[field] === undefined ? '' : (record.cells[columns[field]] ?? '').trim();
      if (text !== '') given[field] = READERS[field]!(text, mark);
    }
    const cost = parse(APP_METHODS.addCarCost.input, given, 'row') as CarCostWrite;
    const problem = carCostProblem(parts, cost);
    if (problem) throw problem;
    return cost;
  } catch (e) {
    if (e instanceof ValueProblem || e instanceof ValidationError || e instanceof AppError) {
      throw new AppError('importLineRefused', { line: record.line, reason: e.message }, 'content');
    }
    throw e;
  }
}

/** The file's decimal mark (csv-reader.ts `detectDecimalMark`), from the cells of the columns read as numbers. */
function decimalMarkOf(table: CsvTable, columns: Partial<Record<keyof CarCostWrite, number>>): DecimalMark | null {
  const numeric = (['odometer', 'amount', 'rate'] as const).map((f) => columns[f]).filter((c) => c !== undefined);
  return detectDecimalMark(
    table.delimiter,
    table.rows.flatMap((r) => numeric.map((c) => r.cells[c] ?? '')),
  );
}

export function carCostFileHandlers(parts: CoreParts): Handlers<'exportCarCostsCsv' | 'importCarCosts'> {
  return {
    exportCarCostsCsv: async ({ carId, dialect }): Promise<CsvFile> => {
      const names = new Map(parts.store.cars.list().map((c) => [c.carId, c.name]));
      if (carId !== undefined && !names.has(carId) && parts.store.carCosts.list(carId).length === 0) {
        throw new AppError('carNotInList', { carId }, 'carId');
      }
      // Oldest first, as the refuelings' export: by car, then by day.
      const rows = parts.store.carCosts
        .list(carId)
        .reverse()
        .sort((a, b) => a.carId - b.carId)
        .map((c) => ({ ...c, carName: names.get(c.carId) ?? '' }));
      const suffix = carId === undefined ? '' : `-car-${carId}`;
      return {
        fileName: `car-costs${suffix}-${parts.now().slice(0, 10)}.csv`,
        content: writeCsv(COST_COLUMNS, rows, dialectOf(dialect)),
        rows: rows.length,
      };
    },
    importCarCosts: async (i) => {
      const table = readCsv(i.content);
      const columns = columnsOf(table.header);
      const mark = decimalMarkOf(table, columns);
      const costs = table.rows.map((r) => readRow(parts, r, columns, i, mark));
      if (costs.length === 0) throw new AppError('nothingToImport', { rows: 0, problems: 0, duplicates: 0 }, 'content');
      parts.store.transaction(() => {
        for (const c of costs) parts.store.carCosts.add(c);
      });
      await parts.changed(['carCosts']);
      return { imported: costs.length };
    },
  };
}
