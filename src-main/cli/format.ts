/** Plain-text output of the command line: aligned columns, one record a line. */
import { importProblemText } from '../../src-shared/app-api';
import type {
  AccountsView,
  BudgetCell,
  BudgetView,
  CarView,
  CategoryNode,
  FuelStats,
  ImportPreview,
  OutboxEntryView,
  RecordCounts,
  RefuelingView,
  SyncSummary,
  TemplateView,
  TransactionPage,
} from '../../src-shared/app-api';
import { currencyLabel } from '../../src-shared/money';

export function table(header: string[], rows: (string | number | null)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (c === null ? '' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - [...c].length)))
      .join('  ')
      .trimEnd();
  return cells.map(line).join('\n');
}

const mark = (pending: boolean) => (pending ? '*' : '');

export function accountsText(v: AccountsView): string {
  const rows = v.accounts.map((a) => [
    a.id,
    a.name + mark(a.pending),
    a.balance,
    currencyLabel(a.currency),
    `#${a.type}`,
    [a.isActive ? '' : 'inactive', a.locked ? 'locked' : '', a.isHidden ? 'hidden' : '', a.permission < 2 ? 'read-only' : '']
      .filter(Boolean)
      .join(','),
  ]);
  const totals = v.totals.map((t) => `${currencyLabel(t.currency)} ${t.total}${mark(t.pending)}`).join('   ');
  return `${table(['ID', 'NAME', 'BALANCE', 'CUR', 'TYPE', 'FLAGS'], rows)}\nTotal: ${totals || '-'}\n(* = waiting in the outbox)`;
}

export function transactionsText(p: TransactionPage): string {
  const rows = p.items.map((t) => [
    t.id ?? '',
    t.paymentDate,
    t.amount,
    `#${t.type}`,
    t.categoryName ?? (t.categoryId ? `#${t.categoryId}` : ''),
    t.description + mark(t.pending),
  ]);
  const end = Math.min(p.total, p.offset + p.items.length);
  return `${table(['ID', 'DATE', 'AMOUNT', 'TYPE', 'CATEGORY', 'DESCRIPTION'], rows)}\n${p.total === 0 ? 'No transactions.' : `${p.offset + 1}-${end} of ${p.total}`}`;
}

export function categoriesText(all: CategoryNode[], favorites: CategoryNode[]): string {
  const lines: string[] = [];
  const walk = (nodes: CategoryNode[], depth: number) => {
    for (const n of nodes) {
      lines.push(`${'  '.repeat(depth)}${n.name}${mark(n.pending)}  [${n.id}]`);
      walk(n.children, depth + 1);
    }
  };
  walk(all, 0);
  const fav = favorites.map((f) => `${f.name} [${f.id}]`).join(', ');
  return `${lines.join('\n') || 'No categories.'}\nFavourites: ${fav || '-'}`;
}

export function templatesText(list: TemplateView[]): string {
  return table(
    ['ID', 'ACCOUNT', 'AMOUNT', 'TYPE', 'CATEGORY', 'DESCRIPTION'],
    list.map((t) => [t.id, t.accountName ?? `#${t.accountId}`, t.amount, `#${t.type}`, t.categoryName ?? '', t.description]),
  );
}

export function carsText(list: CarView[]): string {
  if (list.length === 0) return 'No cars. Add one with: car add <carId> <name>';
  return table(
    ['CAR', 'NAME', 'REFUELINGS', 'LAST KM', 'LAST DATE'],
    list.map((c) => [c.carId, c.name + mark(c.pending), c.refuelings, c.lastTachometer, c.lastDate]),
  );
}

export function refuelingsText(list: RefuelingView[]): string {
  return table(
    ['ID', 'DATE', 'KM', 'LITER', 'PRICE', 'CUR', 'PER LITER', 'DESCRIPTION'],
    list.map((r) => [
      r.id,
      r.dateOfPurchase,
      r.tachometer,
      r.liter,
      r.price,
      currencyLabel(r.currency),
      r.pricePerLiter,
      r.description + mark(r.pending),
    ]),
  );
}

const noteText = { first: 'first fill', 'odometer-not-increasing': 'odometer not above the previous one: restart' } as const;
const flagText = { odometer: 'odometer does not fit those around it', consumption: 'consumption far from the median' } as const;

export function fuelStatsText(f: FuelStats): string {
  const cur = currencyLabel(f.currency);
  const s = f.summary;
  if (s.refuelings === 0) return 'No refuelings of this car in the local copy for this period.';
  const summary = [
    `${s.refuelings} refuelings, ${s.firstDate?.slice(0, 10)} to ${s.lastDate?.slice(0, 10)}: ${s.distance} km, ${s.liters} l, ${s.cost} ${cur}`,
    `Consumption ${s.consumption ?? '-'} l/100 km, ${s.costPer100Km ?? '-'} ${cur}/100 km, ${s.pricePerLiter ?? '-'} ${cur}/l`,
    ...(f.flagged > 0
      ? [
          f.includeFlagged
            ? `${f.flagged} doubtful reading(s) counted, as asked.`
            : `${f.flagged} reading(s) that cannot be right left out of the distance and consumption (--count-flagged counts them).`,
        ]
      : []),
  ];
  const fills = table(
    ['DATE', 'KM', 'DIST', 'LITER', `COST ${cur}`, 'PER LITER', 'L/100KM', 'NOTE'],
    f.fills.map((x) => [
      x.dateOfPurchase.slice(0, 16).replace('T', ' '),
      x.tachometer,
      x.distance,
      x.liter,
      x.cost,
      x.pricePerLiter,
      x.consumption,
      [
        x.partial ? 'partial' : '',
        x.flag ? `doubtful: ${flagText[x.flag]}${x.counted ? ' (counted)' : ' (left out)'}` : '',
        x.note && (!x.flag || x.counted) ? noteText[x.note] : '',
        x.pending ? '*' : '',
      ]
        .filter(Boolean)
        .join(', '),
    ]),
  );
  const months = table(
    ['MONTH', 'FILLS', 'KM', 'LITER', `COST ${cur}`],
    f.months.map((m) => [m.month, m.refuelings, m.distance, m.liters, m.cost]),
  );
  return [...summary, '', fills, '', months].join('\n');
}

export function outboxText(list: OutboxEntryView[]): string {
  if (list.length === 0) return 'The outbox is empty.';
  return table(
    ['ID', 'KIND', 'STATUS', 'MADE', 'TRIES', 'MESSAGE'],
    list.map((e) => [
      e.id,
      e.kind,
      e.status,
      e.createdAt,
      e.attempts,
      e.message ?? (e.conflicts.length ? `conflict on ${e.conflicts.map((c) => c.field).join(', ')}` : ''),
    ]),
  );
}

export function summaryText(s: SyncSummary): string {
  const pulled = s.pulled ? `pulled ${countsOf(s.pulled)}` : 'nothing pulled';
  const received = s.received
    ? Object.values(s.received).some((n) => n > 0)
      ? ` (new or changed: ${countsOf(s.received)})`
      : ' (nothing new)'
    : '';
  const waiting = s.waiting > 0 ? ` ${s.waiting} write${s.waiting === 1 ? '' : 's'} still waiting.` : '';
  const decide =
    s.undecidable > 0
      ? ` ${s.undecidable} write${s.undecidable === 1 ? '' : 's'} may be on the service: check there, then \`outbox retry <id>\` or \`outbox discard <id>\`.`
      : '';
  return `Pushed ${s.pushed}, refused ${s.refused}, conflicts ${s.conflicts}, unknown ${s.unknown}, undecidable ${s.undecidable}; ${pulled}${received}.${waiting}${decide}`;
}

const countsOf = (c: NonNullable<SyncSummary['received']>): string =>
  `${c.accounts} accounts, ${c.transactions} transactions, ${c.templates} templates, ${c.categories} categories, ${c.refuelings} refuelings`;

export function countsText(c: RecordCounts): string {
  return (
    `${c.accounts} accounts, ${c.transactions} transactions, ${c.templates} templates, ${c.categories} categories, ` +
    `${c.cars} cars, ${c.refuelings} refuelings, ${c.budgets} budgets, ` +
    `${c.carCosts} car costs, ${c.reminders} reminders, ${c.pendingWrites} writes in the outbox`
  );
}

/** The rows that will not be imported and why, then the counts. */
const SEPARATOR_WORDS = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' } as const;
const DECIMAL_WORDS = { ',': 'decimal commas', '.': 'decimal points', each: 'the decimal mark told by each number' } as const;

export function importPreviewText(p: ImportPreview): string {
  const lines = [
    `Read as: cells separated by ${SEPARATOR_WORDS[p.delimiter]}, ${DECIMAL_WORDS[p.decimalMark ?? 'each']}, ${p.bom ? 'a' : 'no'} byte order mark.`,
  ];
  for (const r of p.rows) {
    for (const problem of r.problems) lines.push(`Line ${r.line}: ${importProblemText(problem)}`);
    if (r.duplicateOf) {
      const of = r.duplicateOf.id !== null ? `refueling ${r.duplicateOf.id} of car ${p.carId}` : `line ${r.duplicateOf.line}`;
      lines.push(`Line ${r.line}: the same as ${of} (date, odometer and litres); skipped.`);
    }
  }
  const c = p.counts;
  lines.push(`${c.rows} rows: ${c.ready} ready, ${c.problems} with problems, ${c.duplicates} duplicates.`);
  return lines.join('\n');
}

/** A budget's state in words: "over by 200.4", "300 left", "on budget"; nothing without a budget. */
function budgetState(c: BudgetCell): string {
  if (c.state === 'over') return `over by ${c.difference!.slice(1)}`;
  if (c.state === 'under') return `${c.difference} left`;
  return c.state === 'even' ? 'on budget' : '';
}

/** A month's or a year's budgets: one line per category and month, then the totals of the outer budgeted categories. */
export function budgetText(v: BudgetView): string {
  const cur = currencyLabel(v.currency);
  const period = v.months.length === 1 ? v.months[0]! : `${v.months[0]} to ${v.months.at(-1)}`;
  const head = `Budgets of ${period} in ${cur}, kept on this computer only (never sent to the service).`;
  if (v.rows.length === 0) {
    return `${head}
No budgets in ${period}.`;
  }
  const line = (name: string, month: string, c: BudgetCell) => [name, month, c.budget ?? '-', c.spent, c.difference ?? '-', budgetState(c)];
  const rows = v.rows.flatMap((r) => {
    const name = `${'  '.repeat(r.depth)}${r.name ?? `(category ${r.categoryId})`}${r.inner ? ' (in the budget above)' : ''}`;
    const months = r.months.map((c, k) => line(name, v.months[k]!, c));
    return v.months.length === 1 ? months : [...months, line(name, 'year', r.total)];
  });
  const totals = v.months.length === 1 ? [] : v.totals.map((c, k) => line('TOTAL', v.months[k]!, c));
  const body = table(
    ['CATEGORY', 'MONTH', `BUDGET ${cur}`, 'SPENT', 'DIFFERENCE', 'STATE'],
    [...rows, ...totals, line('TOTAL', v.months.length === 1 ? v.months[0]! : 'year', v.total)],
  );
  return `${head}
${body}`;
}
