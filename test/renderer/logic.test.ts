import { describe, expect, it } from 'vitest';
import { codeLabel } from '../../src-renderer/src/composables/labels';
import { formatDateInput, formatDateTimeInput } from '../../src-renderer/src/format/date-input';
import { formatInstant, formatWall, instantMillis, nowForInput, relativeTime, wallForInput } from '../../src-renderer/src/format/datetime';
import { czechPlural } from '../../src-renderer/src/i18n';
import { groupAccounts, sumByCurrency } from '../../src-renderer/src/logic/accounts';
import { flattenTree, isDuplicateName, matchesQuery, pickerOptions, siblingNames } from '../../src-renderer/src/logic/categories';
import { blockerOf, dependentsOf, queuedCount, splitOutbox } from '../../src-renderer/src/logic/outbox';
import { distances, odometerWarning } from '../../src-renderer/src/logic/refuelings';
import { REGISTER_ROW_HEIGHT, REGISTER_WIDTHS, registerLayout } from '../../src-renderer/src/logic/register-layout';
import { transferFromTemplate } from '../../src-renderer/src/logic/transfers';
import type { CategoryNode, OutboxEntryView, TemplateView } from '../../src-shared/app-api';
import { account, refueling } from './stand-in';

const node = (id: number, name: string, children: CategoryNode[] = [], parentId = 0): CategoryNode => ({
  id,
  name,
  parentId,
  children,
  pending: false,
});

describe('accounts', () => {
  it('sums balances per currency exactly (no float drift) and marks pending totals', () => {
    const list = [
      account({ id: 1, balance: '0.1', currency: 978 }),
      account({ id: 2, balance: '0.2', currency: 978, pending: true }),
      account({ id: 3, balance: '-1520.5' }),
      account({ id: 4, balance: '20.5' }),
    ];
    expect(sumByCurrency(list)).toEqual([
      { currency: 203, total: '-1500', pending: false },
      { currency: 978, total: '0.3', pending: true },
    ]);
  });

  it('groups by type code in ascending order and keeps the service order inside a group', () => {
    const list = [
      account({ id: 5, type: 3, name: 'Card' }),
      account({ id: 1, type: 1, name: 'Cash' }),
      account({ id: 2, type: 3, name: 'Card 2' }),
    ];
    const groups = groupAccounts(list);
    expect(groups.map((g) => g.type)).toEqual([1, 3]);
    expect(groups[1]!.accounts.map((a) => a.id)).toEqual([5, 2]);
    expect(groups[1]!.subtotals).toHaveLength(1);
  });
});

describe('categories', () => {
  const tree = [node(1, 'Car', [node(11, 'Fuel', [], 1), node(12, 'Service', [], 1)]), node(2, 'Food')];

  it('flattens depth first with paths', () => {
    expect(flattenTree(tree).map((o) => [o.id, o.depth, o.path])).toEqual([
      [1, 0, 'Car'],
      [11, 1, 'Car › Fuel'],
      [12, 1, 'Car › Service'],
      [2, 0, 'Food'],
    ]);
  });

  it('lists favourites first with their full paths', () => {
    const { favorites, all } = pickerOptions({ favorites: [node(11, 'Fuel', [], 1)], all: tree });
    expect(favorites.map((f) => [f.id, f.path, f.favorite])).toEqual([[11, 'Car › Fuel', true]]);
    expect(all).toHaveLength(4);
  });

  it('matches every word of a query, ignoring case and accents', () => {
    const [o] = flattenTree([node(3, 'Potraviny a drogérie')]);
    expect(matchesQuery(o!, 'DROGERIE')).toBe(true);
    expect(matchesQuery(o!, 'pot drog')).toBe(true);
    expect(matchesQuery(o!, 'auto')).toBe(false);
  });

  it('finds sibling names and refuses a duplicate compared case-insensitively', () => {
    expect(siblingNames(tree, 1)).toEqual(['Fuel', 'Service']);
    expect(siblingNames(tree, 0, 2)).toEqual(['Car']);
    expect(isDuplicateName(' fuel ', siblingNames(tree, 1))).toBe(true);
    expect(isDuplicateName('Tyres', siblingNames(tree, 1))).toBe(false);
  });
});

describe('refuelings', () => {
  const r = (id: number, date: string, tachometer: number) => refueling(id, tachometer, { dateOfPurchase: date });
  const list = [r(3, '2026-11-20T10:00:00', 12000), r(2, '2026-11-10T10:00:00', 11500), r(1, '2026-11-01T10:00:00', 11000)];

  it('warns when the odometer does not grow past the previous refueling', () => {
    expect(odometerWarning(12000, '2026-11-21T08:00', list)).toEqual({ kind: 'not-increasing', previous: 12000 });
    expect(odometerWarning(12001, '2026-11-21T08:00', list)).toBeNull();
  });

  it('checks a back-dated refueling against the one after it, and an edit ignores itself', () => {
    expect(odometerWarning(11600, '2026-11-15T08:00', list)).toBeNull();
    expect(odometerWarning(12500, '2026-11-15T08:00', list)).toEqual({ kind: 'above-next', next: 12000 });
    expect(odometerWarning(11400, '2026-11-10T10:00', list, { excludeId: 2 })).toBeNull();
  });

  it('falls back to the last reading when the list is not loaded', () => {
    expect(odometerWarning(900, '2026-11-21T08:00', [], { lastTachometer: 1000 })).toEqual({ kind: 'not-increasing', previous: 1000 });
    expect(odometerWarning(900, '2026-11-21T08:00', [], { lastTachometer: null })).toBeNull();
  });

  it('computes the distance since the refueling before', () => {
    expect([...distances(list)]).toEqual([
      [3, 500],
      [2, 500],
    ]);
  });
});

describe('templates', () => {
  const tpl = (amount: string, accountId = 5): TemplateView => ({
    id: 1,
    accountId,
    accountName: null,
    type: 2,
    amount,
    description: 'Rent',
    categoryId: 9,
    categoryName: null,
    ord: 0,
  });
  const accounts = new Map([
    [5, account({ id: 5 })],
    [6, account({ id: 6, permission: 1 })],
  ]);

  it('start a transfer from the account an expense leaves, or to the account income arrives on', () => {
    expect(transferFromTemplate(tpl('-14500'), accounts)).toEqual({ sourceId: 5, amount: '14500', categoryId: 9, description: 'Rent' });
    expect(transferFromTemplate(tpl('52300'), accounts)).toEqual({ targetId: 5, amount: '52300', categoryId: 9, description: 'Rent' });
  });

  it('leave out an account the user may not book on or does not know', () => {
    expect(transferFromTemplate(tpl('-1', 6), accounts)).not.toHaveProperty('sourceId');
    expect(transferFromTemplate(tpl('-1', 7), accounts)).not.toHaveProperty('sourceId');
  });
});

describe('outbox', () => {
  const entry = (id: number, status: OutboxEntryView['status'], dependents: number[] = []): OutboxEntryView => ({
    id,
    kind: 'addCategory',
    status,
    message: null,
    createdAt: '2026-11-21T10:00:00',
    attempts: 0,
    input: { name: 'X', parentId: 0 },
    targetId: null,
    dependents,
    conflicts: [],
  });

  it('puts refused, conflicting and blocked entries first, keeping the order', () => {
    const { attention, waiting } = splitOutbox([
      entry(1, 'pending'),
      entry(2, 'refused'),
      entry(3, 'blocked'),
      entry(4, 'unknown'),
      entry(5, 'conflict'),
    ]);
    expect(attention.map((e) => e.id)).toEqual([2, 3, 5]);
    expect(waiting.map((e) => e.id)).toEqual([1, 4]);
  });

  it('counts every queued write and names the dependents of one', () => {
    expect(queuedCount(null)).toBe(0);
    expect(
      queuedCount({
        configured: true,
        workingOffline: false,
        connection: null,
        outbox: { pending: 2, unknown: 1, undecidable: 1, refused: 1, conflicts: 1, blocked: 1 },
        syncing: false,
        lastSyncAt: null,
        lastSync: null,
        offline: false,
        exchange: null,
        damaged: null,
        timeZone: 'UTC',
      }),
    ).toBe(7);
    expect(dependentsOf([entry(1, 'refused', [3]), entry(2, 'pending'), entry(3, 'blocked')], 1).map((e) => e.id)).toEqual([3]);
  });

  it('puts an undecidable write (the sync could not tell whether it arrived) with those that need the user, by its status', () => {
    const undecidable = { ...entry(6, 'undecidable', [7]), message: 'The service lists cannot show it.' };
    // An unknown write with a note (one a restore brought back) is still the next sync's to check.
    const revived = { ...entry(5, 'unknown'), message: 'Restored from a backup: the next sync looks for it there.' };
    const { attention, waiting } = splitOutbox([entry(4, 'unknown'), revived, undecidable, entry(7, 'blocked')]);
    expect(attention.map((e) => e.id)).toEqual([6, 7]);
    expect(waiting.map((e) => e.id)).toEqual([4, 5]);
    expect(blockerOf([undecidable, entry(7, 'blocked')], 7)?.id).toBe(6);
  });

  it('names the entry that holds a blocked one up, through a chain too', () => {
    const list = [entry(1, 'refused', [2]), entry(2, 'blocked', [3]), entry(3, 'blocked'), entry(4, 'pending', [5]), entry(5, 'blocked')];
    expect(blockerOf(list, 2)?.id).toBe(1);
    expect(blockerOf(list, 3)?.id).toBe(2);
    // Waiting on a write that is merely pending does not block; nothing named means its create was discarded.
    expect(blockerOf(list, 5)).toBeNull();
  });
});

describe('labels, plurals and dates', () => {
  it('prefers the user label, then the built-in one, then #code', () => {
    const builtIn = (c: number) => (c === 1 ? 'Cash' : null);
    expect(codeLabel(1, { '1': 'Peněženka' }, builtIn)).toBe('Peněženka');
    expect(codeLabel(1, { '1': '  ' }, builtIn)).toBe('Cash');
    expect(codeLabel(42, {}, builtIn)).toBe('#42');
  });

  it('picks Czech plural forms 1 | 2–4 | 5+', () => {
    expect([1, 2, 4, 5, 11, 22, 0].map((n) => czechPlural(n, 3))).toEqual([0, 1, 1, 2, 2, 2, 2]);
    expect([0, 1, 3, 7].map((n) => czechPlural(n, 4))).toEqual([0, 1, 2, 3]);
  });

  it('shows wall-clock times as written, whatever the viewer’s zone', () => {
    expect(formatWall('2026-11-21T14:05:00', 'en', 'dateTime')).toBe('11/21/2026 2:05 PM');
    expect(formatWall('2026-11-21T14:05:00', 'cs', 'date')).toBe('21.11.2026');
    expect(formatWall('not a date', 'cs')).toBe('not a date');
    expect(wallForInput('2026-11-21T14:05:00')).toBe('2026-11-21T14:05');
    expect(wallForInput('2026-11-21T14:05:30.5')).toBe('2026-11-21T14:05:30');
    expect(nowForInput(new Date(2026, 0, 2, 3, 4))).toBe('2026-01-02T03:04');
  });

  it('shows a date and time as a date field takes and shows it: one format per language', () => {
    for (const locale of ['cs', 'en'] as const) {
      expect(formatWall('2026-11-26T15:56:00', locale)).toBe(formatDateTimeInput('2026-11-26T15:56', locale));
      expect(formatWall('2026-11-26T15:56:00', locale, 'date')).toBe(formatDateInput('2026-11-26', locale));
    }
    expect(formatWall('2026-11-26T15:56:00', 'cs')).toBe('26.11.2026 15:56');
    // Seconds are the record's; the screens show minutes, as the fields do.
    expect(formatWall('2026-11-26T15:56:30', 'cs')).toBe('26.11.2026 15:56');
    expect(formatWall('2026-11-26T15:56:00', 'en')).toBe('11/26/2026 3:56 PM');
  });

  it('says how long ago a sync was', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(relativeTime('2026-11-21T11:55:00Z', 'en', 'UTC', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-11-21T11:59:50Z', 'en', 'UTC', now)).toBe('now');
    expect(relativeTime('garbage', 'en', 'UTC', now)).toBeNull();
  });

  it("reads the core's wall clock in the core's zone, not the viewer's: a sync just done is now, whatever zone shows it", () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    // The machine in Prague (UTC+1) wrote 13:00 at 12:00 UTC; the viewer's zone (this process's) plays no part.
    expect(relativeTime('2026-11-21T13:00:00', 'en', 'Europe/Prague', now)).toBe('now');
    expect(relativeTime('2026-11-21T07:00:00', 'en', 'America/New_York', now)).toBe('now');
    expect(relativeTime('2026-11-21T12:55:00', 'en', 'Europe/Prague', now)).toBe('5 minutes ago');
    expect(instantMillis('2026-11-21T13:00:00', 'Europe/Prague')).toBe(now);
    expect(formatInstant('2026-11-21T13:00:00', 'en', 'Europe/Prague')).toBe(formatDateTimeInput(nowForInput(new Date(now)), 'en'));
  });
});

describe('the register layout', () => {
  it('gives way in its order: Category and Account to a second line first, then Date, Balance under Amount', () => {
    const w = REGISTER_WIDTHS;
    const all = w.date + w.account + w.description + w.category + 2 * w.money;
    expect(registerLayout(all, true)).toBe('wide');
    expect(registerLayout(all - 0.5, true)).toBe('two-line');
    // An account's register has no Account column, so it keeps one line to a narrower width.
    expect(registerLayout(all - w.account, false)).toBe('wide');
    expect(registerLayout(all - w.account - 0.5, false)).toBe('two-line');
    const twoLine = w.date + w.description + 2 * w.money;
    expect(registerLayout(twoLine, true)).toBe('two-line');
    expect(registerLayout(twoLine - 0.5, true)).toBe('stacked');
    expect(registerLayout(20, false)).toBe('stacked');
    expect(REGISTER_ROW_HEIGHT.wide).toBeLessThan(REGISTER_ROW_HEIGHT['two-line']);
  });
});
