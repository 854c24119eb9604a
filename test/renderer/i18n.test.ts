import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decimalsText, codeText, type Translate } from '../../src-renderer/src/composables/errors';
import { i18n } from '../../src-renderer/src/i18n';
import cs from '../../src-renderer/src/i18n/cs';
import en from '../../src-renderer/src/i18n/en';
import { AppError } from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';

beforeAll(readBothLanguages);

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}

/** The screens' source text, read through Vite (this test is type-checked for the browser, without Node types). */
const SOURCES = import.meta.glob<string>('../../src-renderer/src/**/*.{vue,ts}', { query: '?raw', import: 'default', eager: true });

const EN = leaves(en);
const CS = leaves(cs);

afterEach(() => vi.restoreAllMocks());

describe('messages', () => {
  it('has the same keys in Czech and English, none empty', () => {
    expect([...CS.keys()].sort()).toEqual([...EN.keys()].sort());
    for (const [k, v] of [...EN, ...CS]) expect(v.trim(), k).not.toBe('');
  });

  it('has every literal key the screens use', () => {
    const used = new Set<string>();
    expect(Object.keys(SOURCES).length).toBeGreaterThan(40);
    for (const text of Object.values(SOURCES)) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/title: '([a-z.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(200);
    const missing = [...used].filter((k) => !EN.has(k));
    expect(missing).toEqual([]);
  });

  it('gives Czech plurals one form more than English (one, 2-4, many; and a zero form where English has one)', () => {
    for (const [k, v] of EN) {
      if (!v.includes(' | ')) continue;
      const forms = v.split(' | ').length;
      expect(forms, k).toBeLessThanOrEqual(3);
      expect(CS.get(k)!.split(' | ').length, k).toBe(forms + 1);
    }
  });

  it('compiles and renders every message in both languages without warnings', () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const g = i18n.global;
    for (const locale of ['en', 'cs'] as const) {
      g.locale.value = locale;
      for (const key of EN.keys()) {
        const out = g.t(key, { n: 3, count: 3, name: 'X', max: 5, min: 1, when: 'now' }, 3);
        expect(out, `${locale} ${key}`).not.toBe(key);
        expect(out, `${locale} ${key}`).not.toMatch(/[{}]/);
      }
    }
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('picks the right Czech plural form', () => {
    const g = i18n.global;
    g.locale.value = 'cs';
    expect(g.t('accounts.accountCount', 1)).toBe('1 účet');
    expect(g.t('accounts.accountCount', 3)).toBe('3 účty');
    expect(g.t('accounts.accountCount', 5)).toBe('5 účtů');
    g.locale.value = 'en';
    expect(g.t('accounts.accountCount', 1)).toBe('1 account');
    expect(g.t('accounts.accountCount', 5)).toBe('5 accounts');
  });

  it("groups every count as the language does, a plural's and a named one ('818,432', '818 432'), but not a name like a car's number", () => {
    const g = i18n.global;
    g.locale.value = 'en';
    expect(g.t('reports.transactions', 818432)).toBe('818,432 transactions');
    expect(g.t('cars.addedWith', { name: 'Octavia', n: 1234 }, 1234)).toContain('the 1,234 refuelings');
    expect(g.t('names.carNumbered', { name: 'Octavia', id: 12345 })).toBe('Octavia (car 12345)');
    g.locale.value = 'cs';
    // Czech groups with a no-break space, so that a count never breaks over two lines.
    expect(g.t('reports.transactions', 818432)).toBe('818\u00a0432 pohybů');
    expect(g.t('accounts.accountCount', 1001)).toBe('1\u00a0001 účtů');
    expect(g.t('reports.transactions', 3)).toBe('3 pohyby');
  });
});

describe("a language's messages", () => {
  /** The i18n module as the app starts with it: no language read yet. */
  const fresh = async () => {
    vi.resetModules();
    return import('../../src-renderer/src/i18n');
  };

  it('are read when the language is first shown, and the screens keep the language they had until then', async () => {
    const { i18n: app, showLanguage } = await fresh();
    expect(app.global.availableLocales).toEqual([]);
    const shown = showLanguage('cs');
    expect(app.global.locale.value).toBe('en');
    await shown;
    expect(app.global.locale.value).toBe('cs');
    expect(app.global.availableLocales).toEqual(['cs']);
    expect(app.global.t('accounts.accountCount', 3)).toBe('3 účty');
  });

  it('show the language asked for last, whichever read ends last', async () => {
    const { i18n: app, loadMessages, showLanguage } = await fresh();
    await loadMessages('en');
    const czech = showLanguage('cs');
    // Switched back to English before Czech was read: English stays.
    void showLanguage('en');
    expect(app.global.locale.value).toBe('en');
    await czech;
    expect(app.global.locale.value).toBe('en');
  });
});

describe("the core's field errors", () => {
  const t = i18n.global.t as Translate;
  const shown = (locale: 'cs' | 'en', error: AppError) => {
    i18n.global.locale.value = locale;
    return codeText(error, t);
  };

  it("are shown in the user's language by their code and parameters", () => {
    expect(shown('cs', new AppError('notPositive', {}, 'amount'))).toBe('Částka musí být větší než nula.');
    expect(shown('cs', new AppError('required', {}, 'name'))).toBe('Vyplňte toto pole.');
    expect(shown('cs', new AppError('tooLong', { max: 1000 }, 'description'))).toBe('Nejvýše 1\u00a0000 znaků.');
    expect(shown('cs', new AppError('priceDecimals', { currency: 'CZK', max: 2 }, 'price'))).toBe('Nejvýše 2 desetinná místa.');
    expect(shown('cs', new AppError('tooManyDecimals', { max: 6 }, 'rate'))).toBe('Nejvýše 6 desetinných míst.');
    expect(shown('cs', new AppError('notDateTime', {}, 'paymentDate'))).toBe('Zadejte platné datum a čas.');
    expect(shown('cs', new AppError('tooLarge', { max: 2147483647 }, 'ord'))).toBe('Zadejte nejvýše 2\u00a0147\u00a0483\u00a0647.');
    expect(shown('cs', new AppError('categoryNameTaken', { name: 'Jídlo' }, 'name'))).toBe('Kategorie „Jídlo“ zde už je.');
    expect(shown('cs', new AppError('categoryMissing', { id: 7 }, 'categoryId'))).toBe('Tato kategorie už neexistuje.');
    expect(shown('en', new AppError('negative', {}, 'amount'))).toBe('The amount must not be negative.');
  });

  it("show a service's own words as its own", () => {
    expect(shown('cs', new AppError('serviceFault', { service: 'Účet je zamčený' }))).toBe(
      'Služba odpověděla (jejími slovy): Účet je zamčený',
    );
    expect(shown('en', new AppError('serviceFault', { service: 'Account locked' }))).toBe(
      'The service answered (its own words): Account locked',
    );
  });

  it('say how many decimals a currency takes, in the right grammatical number', () => {
    i18n.global.locale.value = 'cs';
    expect([0, 1, 2, 3].map((n) => decimalsText(t, n))).toEqual([
      'Zadejte celou částku bez desetinných míst.',
      'Nejvýše 1 desetinné místo.',
      'Nejvýše 2 desetinná místa.',
      'Nejvýše 3 desetinná místa.',
    ]);
    i18n.global.locale.value = 'en';
    expect(decimalsText(t, 1)).toBe('Use at most 1 decimal place.');
    expect(decimalsText(t, 2)).toBe('Use at most 2 decimal places.');
  });
});
