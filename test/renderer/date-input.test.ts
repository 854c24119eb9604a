/** Dates typed in one field, in the order of the user's language, read and written back exactly. */
import { describe, expect, it } from 'vitest';
import {
  dateOrder,
  firstDayOfWeek,
  formatDateInput,
  formatDateTimeInput,
  parseDateInput,
  parseDateTimeInput,
} from '../../src-renderer/src/format/date-input';

const today = new Date(2026, 10, 24, 9, 30);
const ok = (value: string) => ({ ok: true, value });
const invalid = { ok: false, reason: 'invalid' };

describe('dates typed in the language', () => {
  it('takes the order and separator from Intl: day.month.year in Czech, month/day/year in English', () => {
    expect(dateOrder('cs')).toEqual({ parts: ['day', 'month', 'year'], separator: '.', hour12: false });
    expect(dateOrder('en')).toEqual({ parts: ['month', 'day', 'year'], separator: '/', hour12: true });
    expect(firstDayOfWeek('cs')).toBe(1);
    expect(firstDayOfWeek('en')).toBe(7);
  });

  it('reads what a Czech user types', () => {
    expect(parseDateInput('24.11.2026', 'cs', today)).toEqual(ok('2026-11-24'));
    expect(parseDateInput('24. 11. 2026', 'cs', today)).toEqual(ok('2026-11-24'));
    expect(parseDateInput('1.2.2027', 'cs', today)).toEqual(ok('2027-02-01'));
    expect(parseDateInput('24.11.', 'cs', today)).toEqual(ok('2026-11-24'));
    expect(parseDateInput('24.11.26', 'cs', today)).toEqual(ok('2026-11-24'));
    expect(parseDateTimeInput('24.11.2026 14:05', 'cs', today)).toEqual(ok('2026-11-24T14:05'));
    expect(parseDateTimeInput('24.11.2026 8.30', 'cs', today)).toEqual(ok('2026-11-24T08:30'));
    expect(parseDateTimeInput('24.11.2026', 'cs', today)).toEqual(ok('2026-11-24T00:00'));
  });

  it('reads what an English user types, and ISO in both languages', () => {
    expect(parseDateInput('11/24/2026', 'en', today)).toEqual(ok('2026-11-24'));
    expect(parseDateTimeInput('11/24/2026, 2:05 PM', 'en', today)).toEqual(ok('2026-11-24T14:05'));
    expect(parseDateTimeInput('11/24/2026 12:00 am', 'en', today)).toEqual(ok('2026-11-24T00:00'));
    expect(parseDateTimeInput('11/24/2026 14:05', 'en', today)).toEqual(ok('2026-11-24T14:05'));
    expect(parseDateTimeInput('11/24/2026 2:05:30 PM', 'en', today)).toEqual(ok('2026-11-24T14:05:30'));
    for (const locale of ['cs', 'en'] as const) {
      expect(parseDateInput('2026-11-24', locale, today)).toEqual(ok('2026-11-24'));
      expect(parseDateTimeInput('2026-11-24T14:05', locale, today)).toEqual(ok('2026-11-24T14:05'));
    }
  });

  it('refuses what is not a real date or time, and says when the field is empty', () => {
    expect(parseDateInput('', 'cs', today)).toEqual({ ok: false, reason: 'empty' });
    expect(parseDateInput('   ', 'en', today)).toEqual({ ok: false, reason: 'empty' });
    for (const text of ['31.11.2026', '29.2.2026', '24.13.2026', '24', 'zítra', '24.11.2026 14:05', '123.1.2026']) {
      expect(parseDateInput(text, 'cs', today), text).toEqual(invalid);
    }
    // 24/11 is the 11th day of month 24 in English.
    expect(parseDateInput('24/11/2026', 'en', today)).toEqual(invalid);
    for (const text of ['24.11.2026 25:00', '24.11.2026 14:60', '24.11.2026 13:00 PM', '24.11.2026 zítra']) {
      expect(parseDateTimeInput(text, 'cs', today), text).toEqual(invalid);
    }
    expect(parseDateInput('29.2.2028', 'cs', today)).toEqual(ok('2028-02-29'));
  });

  it('writes a value back as it is read, in both languages', () => {
    expect(formatDateInput('2026-11-24', 'cs')).toBe('24.11.2026');
    expect(formatDateInput('2026-11-24', 'en')).toBe('11/24/2026');
    expect(formatDateTimeInput('2026-11-24T14:05', 'cs')).toBe('24.11.2026 14:05');
    expect(formatDateTimeInput('2026-11-24T00:05', 'en')).toBe('11/24/2026 12:05 AM');
    expect(formatDateTimeInput('2026-11-24T14:05:30', 'en')).toBe('11/24/2026 2:05:30 PM');
    for (const locale of ['cs', 'en'] as const) {
      for (const wall of ['2026-01-01T00:00', '2026-12-31T23:59', '2027-06-15T12:00', '2026-03-08T13:07:09']) {
        expect(parseDateTimeInput(formatDateTimeInput(wall, locale), locale, today), `${locale} ${wall}`).toEqual(ok(wall));
      }
    }
  });
});
