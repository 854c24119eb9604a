/**
 * Spreadsheets run a cell that starts with = + - @ (or a TAB or CR before one) as a formula. Our CSV
 * files put an apostrophe before such a text, which spreadsheets show as plain text, and reading our
 * files takes exactly one apostrophe away again. A text that itself begins with apostrophes before
 * such a character gets one more, so that every text comes back exactly as it was written.
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const PROTECTED = /^'+[=+\-@\t\r]/;

export const protectText = (text: string): string => (FORMULA_LIKE.test(text) ? `'${text}` : text);

export const unprotectText = (cell: string): string => (PROTECTED.test(cell) ? cell.slice(1) : cell);
