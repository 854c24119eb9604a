/**
 * How the register's columns give way as it narrows, so that Description (what a row is) stays readable.
 *
 * The order, and why: Category and Account give way first, moving to a second line under Description:
 * their texts are long and a row's detail shows them in full, while a register is read down its dates and
 * amounts. Date gives way last, with Balance: below that width Date joins the second line and Balance goes
 * under Amount, so that Description and the money are never cut (a number cut short is a wrong number).
 * Rows of two lines are taller; the virtualised table takes the height from here.
 */

/**
 * The columns' widths in rem (the stylesheet's `.register-col-*` are these; Date fits "Nov 13, 2026, 11:16 AM").
 * Description takes the rest, at least its width here: 10 rem of text (some 20 characters) and its padding.
 */
export const REGISTER_WIDTHS = { date: 13.5, account: 9, category: 9.5, money: 9.5, description: 11 } as const;

/** `wide`: every column on one line; `two-line`: Account and Category under Description; `stacked`: Date too, Balance under Amount. */
export type RegisterLayout = 'wide' | 'two-line' | 'stacked';

/** A row's height in px in each layout (one line of text, or two). */
export const REGISTER_ROW_HEIGHT: Record<RegisterLayout, number> = { wide: 40, 'two-line': 56, stacked: 56 };

/** The layout of a register `widthRem` wide (its scroller's inner width in rem); `showAccount`: the column of accounts. */
export function registerLayout(widthRem: number, showAccount: boolean): RegisterLayout {
  const w = REGISTER_WIDTHS;
  const money = 2 * w.money;
  const wide = w.date + (showAccount ? w.account : 0) + w.description + w.category + money;
  if (widthRem >= wide) return 'wide';
  if (widthRem >= w.date + w.description + money) return 'two-line';
  return 'stacked';
}
