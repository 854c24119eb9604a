/**
 * Reads CSV as RFC 4180 describes it, and as spreadsheets write it: quoted fields with doubled quotes,
 * CR, LF or CRLF line ends, line breaks inside quotes, a UTF-8 byte order mark. The delimiter is told
 * from the header line (Czech Excel writes `;`, with decimal commas). The apostrophe our own export puts
 * before a formula-like text is taken away (csv-formula.ts).
 */
import { AppError } from '../../../src-shared/app-api';
import { unprotectText } from './csv-formula';

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CsvTable {
  delimiter: CsvDelimiter;
  header: string[];
  rows: CsvRecord[];
}

export interface CsvLimits {
  /** Records after the header. */
  maxRows: number;
  maxColumns: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = { maxRows: 20_000, maxColumns: 200 };

type CsvProblem = 'csvEmpty' | 'csvTooManyColumns' | 'csvTooManyRows' | 'csvQuoteOpen' | 'csvAfterQuote';
/** Text that cannot be read as CSV, said by its error code (with the line where it can). */
export class CsvError<C extends CsvProblem = CsvProblem> extends AppError<C> {
  override name = 'CsvError';
}

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/** The candidate found most often outside quotes in the first line; a comma when none is. */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch as CsvDelimiter)) counts.set(ch as CsvDelimiter, counts.get(ch as CsvDelimiter)! + 1);
  }
  let best: CsvDelimiter = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

export function readCsv(input: string, limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvTable {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  /** Whether the current record has anything (a cell, a delimiter or a quote) beyond an empty line. */
  let started = false;
  let i = 0;

  const endCell = () => {
    cells.push(unprotectText(cell));
    cell = '';
    if (cells.length > limits.maxColumns) throw new CsvError('csvTooManyColumns', { line: recordLine, columns: limits.maxColumns });
  };
  const endRecord = () => {
    if (started) {
      endCell();
      records.push({ line: recordLine, cells });
      if (records.length > limits.maxRows + 1) {
        throw new CsvError('csvTooManyRows', { rows: limits.maxRows });
      }
    }
    cells = [];
    cell = '';
    started = false;
  };
  /** Consumes a line end at i (CR, LF or CRLF); returns whether there was one. */
  const lineEnd = (): boolean => {
    const ch = text[i];
    if (ch === '\r') {
      i += text[i + 1] === '\n' ? 2 : 1;
    } else if (ch === '\n') i++;
    else return false;
    line++;
    return true;
  };

  while (i < text.length) {
    if (!started) recordLine = line;
    const ch = text[i]!;
    if (ch === '"' && cell === '') {
      started = true;
      const opened = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvError('csvQuoteOpen', { line: opened });
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\r' || q === '\n') {
          const start = i;
          lineEnd();
          cell += text.slice(start, i);
          continue;
        }
        cell += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new CsvError('csvAfterQuote', { line });
      }
      continue;
    }
    if (ch === delimiter) {
      started = true;
      endCell();
      i++;
      continue;
    }
    if (lineEnd()) {
      endRecord();
      continue;
    }
    started = true;
    cell += ch;
    i++;
  }
  endRecord();

  const [header, ...rows] = records;
  if (!header) throw new CsvError('csvEmpty');
  return { delimiter, header: header.cells.map((h) => h.trim()), rows };
}
