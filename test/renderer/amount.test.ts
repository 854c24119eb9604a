import { describe, expect, it } from 'vitest';
import { currencyOptions } from '../../src-renderer/src/composables/currencies';
import {
  absAmount,
  amountForInput,
  currencyChoiceLabel,
  currencySymbol,
  divideDecimal,
  formatAmount,
  formatMoney,
  formatMoneyQuantity,
  formatQuantity,
  moneyParts,
  negateAmount,
  parseAmountInput,
  signOf,
} from '../../src-renderer/src/format/amount';

const ok = (value: string) => ({ ok: true, value });

describe('parseAmountInput', () => {
  it('reads Czech habits: spaces (also no-break ones) group, comma is the decimal mark', () => {
    expect(parseAmountInput('1 234,50', 'cs')).toEqual(ok('1234.5'));
    expect(parseAmountInput('1\u00a0234,5', 'cs')).toEqual(ok('1234.5'));
    expect(parseAmountInput('1\u202f234\u202f567,89', 'cs')).toEqual(ok('1234567.89'));
    expect(parseAmountInput('12,5', 'cs')).toEqual(ok('12.5'));
    expect(parseAmountInput('1,234', 'cs')).toEqual(ok('1.234'));
  });

  it('reads English habits: commas group, dot is the decimal mark', () => {
    expect(parseAmountInput('1,234.50', 'en')).toEqual(ok('1234.5'));
    expect(parseAmountInput('1,234', 'en')).toEqual(ok('1234'));
    expect(parseAmountInput('1,234,567', 'en')).toEqual(ok('1234567'));
    expect(parseAmountInput('12,5', 'en')).toEqual(ok('12.5'));
    expect(parseAmountInput('0.07', 'en')).toEqual(ok('0.07'));
  });

  it('takes the last of two different marks as the decimal one in either language', () => {
    expect(parseAmountInput('1.234,50', 'en')).toEqual(ok('1234.5'));
    expect(parseAmountInput('1,234.50', 'cs')).toEqual(ok('1234.5'));
    expect(parseAmountInput('1.234.567,5', 'cs')).toEqual(ok('1234567.5'));
  });

  it('keeps signs, drops a plus, reads the typographic minus and makes -0 zero', () => {
    expect(parseAmountInput('-12,30', 'cs')).toEqual(ok('-12.3'));
    expect(parseAmountInput('\u2212 1 000', 'cs')).toEqual(ok('-1000'));
    expect(parseAmountInput('+5', 'en')).toEqual(ok('5'));
    expect(parseAmountInput('-0,00', 'cs')).toEqual(ok('0'));
    expect(parseAmountInput(',5', 'cs')).toEqual(ok('0.5'));
  });

  it('refuses what is not an amount', () => {
    for (const text of ['abc', '1,2,3', '12.34.5', '1 2a', '--1', '1e5', '.', '1,23.4', '12,3456.7']) {
      expect(parseAmountInput(text, 'en'), text).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(parseAmountInput('   ', 'cs')).toEqual({ ok: false, reason: 'empty' });
  });

  it('refuses more decimals than the currency has, without rounding', () => {
    expect(parseAmountInput('10,005', 'cs', 2)).toEqual({ ok: false, reason: 'too-many-decimals' });
    expect(parseAmountInput('10,50', 'cs', 2)).toEqual(ok('10.5'));
    expect(parseAmountInput('100', 'cs', 0)).toEqual(ok('100'));
    expect(parseAmountInput('1.5', 'en', 0)).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('stays exact beyond what a double holds', () => {
    expect(parseAmountInput('12 345 678 901 234 567,89', 'cs')).toEqual(ok('12345678901234567.89'));
  });
});

describe('formatAmount', () => {
  it('shows the currency digits, the locale grouping and a real minus sign', () => {
    expect(formatAmount('-1234.5', 'cs', 203)).toBe('\u22121\u00a0234,50');
    expect(formatAmount('-1234.5', 'en', 978)).toBe('\u22121,234.50');
    expect(formatAmount('1500', 'en', 392)).toBe('1,500');
    expect(formatAmount('2.5', 'en', 414)).toBe('2.500');
  });

  it('never hides decimals the value has and never goes through a float', () => {
    expect(formatAmount('0.125', 'en', 203)).toBe('0.125');
    expect(formatAmount('12345678901234567.89', 'en', 203)).toBe('12,345,678,901,234,567.89');
  });

  it('signs transactions on request and takes an unknown currency as two digits', () => {
    expect(formatAmount('250', 'en', 999, { signed: true })).toBe('+250.00');
    expect(formatAmount('0', 'en', 203, { signed: true })).toBe('0.00');
    expect(formatAmount('1.5', 'cs', null)).toBe('1,5');
  });

  it('gives editable text that reads back to the same amount', () => {
    for (const locale of ['cs', 'en'] as const) {
      const text = amountForInput('-1234567.5', locale, 203);
      expect(text).not.toMatch(/[\s\u00a0\u202f]/);
      expect(parseAmountInput(text, locale)).toEqual(ok('-1234567.5'));
    }
  });
});

describe('formatQuantity', () => {
  it('rounds measured quantities for display only', () => {
    expect(formatQuantity('38.769999999999996', 'en', 2, 3)).toBe('38.77');
    expect(formatQuantity('40.5', 'cs', 2, 3)).toBe('40,50');
    expect(formatQuantity('32.196', 'en', 2, 2)).toBe('32.20');
  });
});

describe('decimal helpers', () => {
  it('signs, negates and takes absolute values of decimal text', () => {
    expect(signOf('-0.01')).toBe(-1);
    expect(signOf('0')).toBe(0);
    expect(signOf('3')).toBe(1);
    expect(negateAmount('12.5')).toBe('-12.5');
    expect(negateAmount('0')).toBe('0');
    expect(absAmount('-7')).toBe('7');
  });

  it('divides through the shared exact division and gives canonical text (price per litre)', () => {
    expect(divideDecimal('1234.5', '35.27', 3)).toBe('35.001');
    expect(divideDecimal('10', '4', 3)).toBe('2.5');
    expect(divideDecimal('5', '0', 3)).toBeNull();
    expect(divideDecimal('x', '1', 3)).toBeNull();
  });
});

describe('money as Intl writes it in the language', () => {
  it('puts the currency sign where the language does, with its own sign ("Kč" in Czech), exactly', () => {
    const nb = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(nb(formatMoney('-1234.5', 'cs', 203))).toBe('\u22121 234,50 Kč');
    expect(nb(formatMoney('-1234.5', 'en', 203))).toBe('\u2212CZK 1,234.50');
    expect(nb(formatMoney('1234.5', 'en', 978, { signed: true }))).toBe('+€1,234.50');
    expect(nb(formatMoney('12', 'cs', 978))).toBe('12,00 €');
    // Never rounded: a value with more decimals than its currency shows them all, digits beyond a double's too.
    expect(nb(formatMoney('0.001', 'cs', 203))).toBe('0,001 Kč');
    expect(nb(formatMoney('12345678901234567.89', 'en', 203))).toBe('CZK 12,345,678,901,234,567.89');
    // A code the app does not know follows the number.
    expect(nb(formatMoney('5', 'en', 999))).toBe('5.00 #999');
    expect(
      moneyParts('-5', 'en', 203)
        .filter((p) => p.currency)
        .map((p) => p.text),
    ).toEqual(['CZK']);
    expect([currencySymbol(203, 'cs'), currencySymbol(203, 'en'), currencySymbol(978, 'cs'), currencySymbol(999, 'cs')]).toEqual([
      'Kč',
      'CZK',
      '€',
      '#999',
    ]);
    expect(nb(formatMoneyQuantity('40.125', 'cs', 203, 2, 2))).toBe('40,13 Kč');
  });

  it('names a currency among choices by the same sign with its code, the code alone where it is the sign', () => {
    expect([203, 978, 840].map((c) => currencyChoiceLabel(c, 'cs'))).toEqual(['Kč (CZK)', '€ (EUR)', 'US$ (USD)']);
    expect([203, 978, 840].map((c) => currencyChoiceLabel(c, 'en'))).toEqual(['CZK', '€ (EUR)', '$ (USD)']);
    expect(currencyChoiceLabel(999, 'cs')).toBe('#999');
    expect(currencyOptions('cs').slice(0, 2)).toEqual([
      { code: 203, label: 'Kč (CZK)' },
      { code: 978, label: '€ (EUR)' },
    ]);
  });
});
