/**
 * Reads CSV as RFC 4180 describes it, and as spreadsheets write it: quoted fields with doubled quotes,
 * CR, LF or CRLF line ends, line breaks inside quotes, a UTF-8 byte order mark. Any dialect of
 * src-shared/csv-dialect.ts reads back, and what the file is written in is told from the file itself:
 *
 * - the BOM: a U+FEFF as the very first character is dropped and said (`bom`); one that starts a later
 *   record (two files joined into one) is dropped too, so that the record's first cell reads as written;
 * - the separator: whichever of `,` `;` TAB occurs most often outside quotes in the header line (a comma
 *   on a tie or when none does); Czech Excel writes `;`, since its decimal mark is the comma;
 * - the decimal mark: see `detectDecimalMark`, over the cells the caller reads as numbers.
 *
 * The apostrophe our own export puts before a formula-like text is taken away (csv-formula.ts).
 */
import { AppError } from '../../../src-shared/app-api';
import type { CsvSeparator, DecimalMark } from '../../../src-shared/csv-dialect';
import { unprotectText } from './csv-formula';

export type CsvDelimiter = CsvSeparator;

export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CsvTable {
  delimiter: CsvDelimiter;
  /** Whether the file began with a UTF-8 byte order mark. */
  bom: boolean;
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
const BOM = '\uFEFF';

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
  const bom = input.startsWith(BOM);
  const text = bom ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const [header, ...rows] = new CsvScanner(text, delimiter, limits).records();
  if (!header) throw new CsvError('csvEmpty');
  return { delimiter, bom, header: header.cells.map((h) => h.trim()), rows };
}

/** A number written with a decimal comma and not readable as one grouped by commas: 40,5 or 1 620,50 (not 1,500). */
const COMMA_DECIMAL = /^-?[\d \u00A0\u202F.]*\d,(\d{1,2}|\d{4,})$/;
/** A number with a decimal point and not readable as one grouped by points: 40.5 or 1,620.50 (not 1.500). */
const POINT_DECIMAL = /^-?[\d \u00A0\u202F,]*\d\.(\d{1,2}|\d{4,})$/;

/**
 * The decimal mark of a file's numbers: the comma when the separator is `;` (Czech Excel's way); else the
 * point when some number cell can only be read with a decimal point (40.5, 1,620.50), the comma when some
 * can only be read with a decimal comma (40,5) and none with a point; else null, undecided: each number
 * then by its own look (import-values.ts `readNumber`). `cells` are the texts the caller reads as numbers.
 * A value such as 1,500 or 1.500 decides nothing (a thousand and a half, or one and a half).
 */
export function detectDecimalMark(delimiter: CsvDelimiter, cells: Iterable<string>): DecimalMark | null {
  if (delimiter === ';') return ',';
  let comma = false;
  for (const cell of cells) {
    const text = cell.trim();
    if (POINT_DECIMAL.test(text)) return '.';
    if (COMMA_DECIMAL.test(text)) comma = true;
  }
  return comma ? ',' : null;
}

/** One pass over the text, a character at a time: the records, each with the line it starts on. */
class CsvScanner {
  private readonly found: CsvRecord[] = [];
  private cells: string[] = [];
  private cell = '';
  private line = 1;
  private recordLine = 1;
  /** Whether the current record has anything (a cell, a delimiter or a quote) beyond an empty line. */
  private started = false;
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly delimiter: CsvDelimiter,
    private readonly limits: CsvLimits,
  ) {}

  records(): CsvRecord[] {
    const { text, delimiter } = this;
    while (this.i < text.length) {
      if (!this.started) this.recordLine = this.line;
      const ch = text[this.i]!;
      if (ch === BOM && !this.started) {
        // The BOM of a second file joined to the first: not part of the record's first cell.
        this.i++;
      } else if (ch === '"' && this.cell === '') {
        this.quoted();
      } else if (ch === delimiter) {
        this.started = true;
        this.endCell();
        this.i++;
      } else if (this.lineEnd()) {
        this.endRecord();
      } else {
        this.started = true;
        this.cell += ch;
        this.i++;
      }
    }
    this.endRecord();
    return this.found;
  }

  /** A quoted cell from its opening quote: doubled quotes are one, line breaks are kept; a delimiter or line end must follow. */
  private quoted(): void {
    const { text } = this;
    this.started = true;
    const opened = this.line;
    this.i++;
    for (;;) {
      if (this.i >= text.length) throw new CsvError('csvQuoteOpen', { line: opened });
      const q = text[this.i]!;
      if (q === '"') {
        if (text[this.i + 1] !== '"') break;
        this.cell += '"';
        this.i += 2;
      } else if (q === '\r' || q === '\n') {
        const start = this.i;
        this.lineEnd();
        this.cell += text.slice(start, this.i);
      } else {
        this.cell += q;
        this.i++;
      }
    }
    this.i++;
    const next = text[this.i];
    if (next !== undefined && next !== this.delimiter && next !== '\r' && next !== '\n') {
      throw new CsvError('csvAfterQuote', { line: this.line });
    }
  }

  /** Consumes a line end at i (CR, LF or CRLF); returns whether there was one. */
  private lineEnd(): boolean {
    const ch = this.text[this.i];
    if (ch === '\r') {
      this.i += this.text[this.i + 1] === '\n' ? 2 : 1;
    } else if (ch === '\n') this.i++;
    else return false;
    this.line++;
    return true;
  }

  private endCell(): void {
    this.cells.push(unprotectText(this.cell));
    this.cell = '';
    if (this.cells.length > this.limits.maxColumns) {
      throw new CsvError('csvTooManyColumns', { line: this.recordLine, columns: this.limits.maxColumns });
    }
  }

  private endRecord(): void {
    if (this.started) {
      this.endCell();
      this.found.push({ line: this.recordLine, cells: this.cells });
      if (this.found.length > this.limits.maxRows + 1) throw new CsvError('csvTooManyRows', { rows: this.limits.maxRows });
    }
    this.cells = [];
    this.cell = '';
    this.started = false;
  }
}
