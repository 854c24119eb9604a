/**
 * The CSV dialects the app writes, in one table: what separates the cells, how a decimal number and a date
 * are written, and whether the file starts with a byte order mark. The screens offer them by name (the
 * locale's default chosen), the core's writer follows the chosen row, and the reader tells any of them
 * apart again (src-main/core/files/csv-reader.ts), so the same files import back.
 *
 * - `excel-cs`: what Excel in Czech opens by a double click: semicolons (Czech Windows' list separator,
 *   since the comma is the decimal mark), decimal commas, dates as Czech Excel writes and reads them
 *   (21.11.2026 8:05:00), UTF-8 with a BOM (without one Excel reads the file as Windows-1250 and garbles
 *   every letter beyond ASCII), CRLF.
 * - `excel-en`: what Excel in English opens: commas, decimal points, dates as ISO 8601 with a space
 *   (2026-11-21 08:05:00, which Excel reads as a date in every locale, where 11/21/2026 means a different
 *   day in the UK than in the US), and also UTF-8 with a BOM: Excel in English, too, reads a file without one
 *   as Windows-1252 (an "€" or "Ž" would come out garbled).
 * - `plain`: RFC 4180 for programs (and the command line's default): commas, points, ISO 8601 dates as the
 *   app keeps them (2026-11-21T08:05:00), no BOM, CRLF.
 */

export const CSV_DIALECT_NAMES = ['excel-cs', 'excel-en', 'plain'] as const;
export type CsvDialectName = (typeof CSV_DIALECT_NAMES)[number];

export type CsvSeparator = ',' | ';' | '\t';
export type DecimalMark = ',' | '.';

export interface CsvDialect {
  separator: CsvSeparator;
  decimalMark: DecimalMark;
  /** A UTF-8 byte order mark before the header. */
  bom: boolean;
  /** How a wall-clock date and time is written: as kept (ISO with T), ISO with a space, or the Czech D.M.YYYY H:mm:ss. */
  dates: 'iso' | 'iso-space' | 'czech';
}

export const CSV_DIALECTS: Readonly<Record<CsvDialectName, CsvDialect>> = {
  'excel-cs': { separator: ';', decimalMark: ',', bom: true, dates: 'czech' },
  'excel-en': { separator: ',', decimalMark: '.', bom: true, dates: 'iso-space' },
  plain: { separator: ',', decimalMark: '.', bom: false, dates: 'iso' },
};

/** The dialect an export dialog offers first: the spreadsheet of the user's language. */
export const defaultCsvDialect = (locale: string): CsvDialectName => (locale.startsWith('cs') ? 'excel-cs' : 'excel-en');

/**
 * A wall-clock `YYYY-MM-DDTHH:mm:ss` (or a day `YYYY-MM-DD`) in a dialect's way; null when the text has
 * neither shape (the writer refuses it rather than write something no reader would take back).
 */
export function formatCsvDate(value: string, dates: CsvDialect['dates']): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m as unknown as [string, string, string, string, string?, string?, string?];
  const time = h === undefined ? null : { h, mi: mi!, s: s! };
  switch (dates) {
    case 'iso':
      return value;
    case 'iso-space':
      return time ? `${y}-${mo}-${d} ${time.h}:${time.mi}:${time.s}` : value;
    case 'czech': {
      const day = `${Number(d)}.${Number(mo)}.${y}`;
      return time ? `${day} ${Number(time.h)}:${time.mi}:${time.s}` : day;
    }
  }
}
