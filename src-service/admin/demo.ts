/**
 * The demo data set of issue 3: client key `demo`; user demo/demo with CZK and EUR accounts, a category
 * tree, a year of transactions (salary, rent, groceries, fuel, transfers to savings and to the card...),
 * templates and two cars with refuelings; user demo2/demo2, who shares one account with demo read-only.
 *
 * The amounts come from a seeded generator, so two demo files differ only in their dates, which end
 * today so that the favourite categories (last 90 days) are filled.
 */
import { formatWall, instantToWall, localTimeZone } from '../../src-shared/wire';
import { hashPassword, DEFAULT_HASH_PARAMS } from '../auth/password';
import { RuleError } from '../errors';
import { createCategory } from '../operations/categories';
import type { CallContext } from '../operations/context';
import { addTransfer, bookTransaction, createTemplate } from '../operations/transactions';
import { PERMISSION, awaited, minorToAmount, type Flow, type StoreFlow } from '../store';
import { accountFor, contextOf, refuelingFor, type HashOptions } from './operator';
import { seededRandom } from './seeded-random';

export const DEMO_CLIENT_KEY = 'demo';
export const DEMO_USERS = [
  { login: 'demo', password: 'demo' },
  { login: 'demo2', password: 'demo2' },
] as const;
export const DEMO_CAR_IDS = [1, 2] as const;

export interface DemoOptions extends HashOptions {
  /** The zone the dates are written in; default the machine's. */
  timeZone?: string;
  /** "Today" of the data set (ms since the epoch); default now. */
  now?: number;
}

export interface DemoSummary {
  clientKey: string;
  users: { login: string; password: string; id: number }[];
  /** demo's accounts by their role in the data set. */
  accounts: { cash: number; bank: number; savings: number; card: number; euro: number; old: number };
  /** demo2's account that demo may read. */
  sharedAccountId: number;
  carIds: readonly number[];
  transactions: number;
  refuelings: number;
  templates: number;
}

const DAY = 86_400_000;
const CZK = 203;
const EUR = 978;
/** Bookings happen in the daytime: from 7:00 to 20:59. */
const FIRST_MINUTE = 7 * 60;
const DAYTIME_MINUTES = 14 * 60;

/** Category tree of demo: top level name -> children. */
const DEMO_CATEGORIES: Record<string, string[]> = {
  Bydlení: ['Nájem', 'Energie', 'Internet a telefon'],
  Jídlo: ['Potraviny', 'Restaurace'],
  Doprava: ['Palivo', 'MHD', 'Servis auta'],
  Příjmy: ['Mzda', 'Úroky'],
  'Volný čas': ['Sport', 'Kultura', 'Dovolená'],
  Zdraví: [],
  Převody: [],
};

/** The demo data set, as one write (the password hashes are made first). */
export function demoData(opts: DemoOptions = {}): StoreFlow<DemoSummary> {
  const timeZone = opts.timeZone ?? localTimeZone();
  const today = opts.now ?? Date.now();
  const hashParams = opts.hashParams ?? DEFAULT_HASH_PARAMS;
  const hashes = DEMO_USERS.map((u) => hashPassword(u.password, hashParams));
  const random = seededRandom(20261121);
  // Amounts and litres are made as whole hundredths (both currencies have two decimals) and become
  // wire doubles only when booked, so that each is exactly the decimal it shows.
  const hundredths = (n: number) => minorToAmount(n, CZK);
  /** Minor units of a whole amount between min and max, sometimes with hellers. */
  const amount = (min: number, max: number) => {
    const whole = (min + Math.floor(random() * (max - min + 1))) * 100;
    return random() < 0.4 ? whole + Math.floor(random() * 100) : whole;
  };
  const now = formatWall(instantToWall(today, timeZone));
  /**
   * A daytime wall clock, to the minute, on the day `daysAgo` days before today; a time today that is
   * still ahead moves to the day before, so that nothing is in the future.
   */
  const at = (daysAgo: number) => {
    const minute = FIRST_MINUTE + Math.floor(random() * DAYTIME_MINUTES);
    const onDay = (days: number) => {
      const date = instantToWall(today - days * DAY, timeZone);
      return formatWall({ ...date, hour: Math.floor(minute / 60), minute: minute % 60, second: 0, millisecond: 0 });
    };
    const wall = onDay(daysAgo);
    return wall <= now ? wall : onDay(daysAgo + 1);
  };

  return function* (store) {
    let taken = yield* awaited(store.users.clientExists(DEMO_CLIENT_KEY));
    for (const u of DEMO_USERS) taken ||= (yield* awaited(store.users.byLogin(u.login))) !== undefined;
    if (taken) throw new RuleError('The demo data is there already.');
    yield* awaited(store.users.insertClient(DEMO_CLIENT_KEY, 'Demo'));
    const ids: number[] = [];
    for (const [i, u] of DEMO_USERS.entries()) ids.push(yield* awaited(store.users.insert(u.login, hashes[i]!, 203)));
    const demo: CallContext = { ...(yield* contextOf(store, 'demo', timeZone)), now: () => today };
    const demo2: CallContext = { ...(yield* contextOf(store, 'demo2', timeZone)), now: () => today };
    let transactions = 0;
    let refuelings = 0;

    const accounts = {
      cash: yield* accountFor(demo, { name: 'Peněženka', currency: 203, type: 1, ord: 1 }),
      bank: yield* accountFor(demo, { name: 'Běžný účet', currency: 203, type: 2, ord: 2, description: 'Hlavní účet u banky' }),
      savings: yield* accountFor(demo, { name: 'Spořicí účet', currency: 203, type: 4, ord: 3 }),
      card: yield* accountFor(demo, { name: 'Kreditní karta', currency: 203, type: 3, ord: 4 }),
      euro: yield* accountFor(demo, { name: 'Eurový účet', currency: 978, type: 2, ord: 5, description: 'Na cesty' }),
      old: yield* accountFor(demo, { name: 'Starý účet', currency: 203, type: 2, ord: 6, description: 'Zrušený' }),
    };
    const categories = new Map<string, number>();
    for (const [top, children] of Object.entries(DEMO_CATEGORIES)) {
      const id = yield* createCategory(demo, { Name: top, Id_ParentCategory: 0 });
      categories.set(top, id);
      for (const child of children) categories.set(child, yield* createCategory(demo, { Name: child, Id_ParentCategory: id }));
    }
    const cat = (name: string) => categories.get(name)!;
    function* book(ctx: CallContext, accountId: number, minor: number, daysAgo: number, description: string, category: number): Flow<void> {
      yield* bookTransaction(ctx, { accountId, amount: hundredths(minor), paymentDate: at(daysAgo), description, categoryId: category });
      transactions += 1;
    }
    function* transfer(from: number, to: number, minor: number, daysAgo: number, description: string, category = 0): Flow<void> {
      yield* addTransfer(demo, {
        Amount: hundredths(minor),
        Description: description,
        Id_SourceAccount: from,
        Id_TargetAccount: to,
        Id_Category: category,
        PaymentDate: at(daysAgo),
      });
      transactions += 2;
    }

    // Opening balances a year ago.
    yield* book(demo, accounts.cash, 3000_00, 365, 'Počáteční zůstatek', 0);
    yield* book(demo, accounts.bank, 85_000_00, 365, 'Počáteční zůstatek', 0);
    yield* book(demo, accounts.savings, 150_000_00, 365, 'Počáteční zůstatek', 0);
    yield* book(demo, accounts.euro, 1500_00, 365, 'Počáteční zůstatek', 0);
    yield* book(demo, accounts.old, 1250_50, 364, 'Počáteční zůstatek', 0);
    yield* book(demo, accounts.old, -1250_50, 200, 'Převod zůstatku v hotovosti', 0);

    // Card spending is paid off from the bank account a few days after each 30-day period.
    const cardSpends: { daysAgo: number; minor: number }[] = [];
    function* byCard(minor: number, daysAgo: number, description: string, category: number): Flow<void> {
      yield* book(demo, accounts.card, -minor, daysAgo, description, category);
      cardSpends.push({ daysAgo, minor });
    }
    for (let month = 11; month >= 0; month--) {
      const base = month * 30 + 28;
      yield* book(demo, accounts.bank, 52_300_00, base - 9, 'Výplata', cat('Mzda'));
      yield* book(demo, accounts.bank, -14_500_00, base - 14, 'Nájem', cat('Nájem'));
      yield* book(demo, accounts.bank, -amount(1800, 2600), base - 19, 'Záloha na energie', cat('Energie'));
      yield* book(demo, accounts.bank, -599_00, base - 21, 'Mobil a internet', cat('Internet a telefon'));
      yield* book(demo, accounts.cash, -550_00, base - 10, 'Lítačka', cat('MHD'));
      yield* book(demo, accounts.savings, amount(40, 90), base - 27, 'Úroky', cat('Úroky'));
      yield* transfer(accounts.bank, accounts.savings, 5000_00, base - 10, 'Spoření', cat('Převody'));
      yield* transfer(accounts.bank, accounts.cash, 3000_00, base - 12, 'Výběr z bankomatu');
      for (const d of [3, 17]) yield* byCard(amount(250, 1200), base - d, 'Restaurace', cat('Restaurace'));
      if (month % 3 === 0) yield* byCard(amount(300, 900), base - 24, 'Vstupenky', cat('Kultura'));
    }
    for (let week = 51; week >= 0; week--) {
      if (week % 3 === 0) yield* book(demo, accounts.cash, -amount(600, 2400), week * 7 + 2, 'Nákup potravin', cat('Potraviny'));
      else yield* byCard(amount(600, 2400), week * 7 + 2, 'Nákup potravin', cat('Potraviny'));
    }
    yield* book(demo, accounts.euro, -amount(300, 500), 70, 'Ubytování, Rakousko', cat('Dovolená'));
    yield* book(demo, accounts.euro, -amount(60, 120), 69, 'Večeře', cat('Restaurace'));
    yield* book(demo, accounts.euro, -amount(40, 70), 68, 'Skipas', cat('Sport'));
    yield* book(demo, accounts.euro, 2_35, 30, 'Úroky', cat('Úroky'));
    yield* book(demo, accounts.cash, -amount(400, 900), 45, 'Lékárna', cat('Zdraví'));
    yield* book(demo, accounts.bank, -amount(3000, 6000), 120, 'Servis auta', cat('Servis auta'));
    // The old account is closed: still listed, no transfer may touch it.
    yield* awaited(
      store.accounts.update(accounts.old, {
        name: 'Starý účet',
        description: 'Zrušený',
        type: 2,
        is_active: 0,
        is_hidden: 1,
        locked: 1,
        ord: 6,
      }),
    );

    // Two cars, refuelled every two to three weeks; one refuelling abroad in EUR.
    for (const [carId, every, startKm] of [
      [DEMO_CAR_IDS[0], 16, 84_200],
      [DEMO_CAR_IDS[1], 30, 151_000],
    ] as const) {
      let km = startKm;
      for (let daysAgo = 360; daysAgo >= 0; daysAgo -= every) {
        km += 450 + Math.floor(random() * 400);
        // Litres and prices per litre in hundredths, as a pump shows them.
        const centilitres = 30_00 + Math.floor(random() * 20_00);
        const abroad = carId === DEMO_CAR_IDS[0] && daysAgo < 75 && daysAgo >= 75 - every;
        const perLiterMinor = abroad ? 1_65 : 36_90 + Math.floor(random() * 4_00);
        // Hundredths times hundredths are ten-thousandths: rounded half up to minor units.
        const priceMinor = Math.round((centilitres * perLiterMinor) / 100);
        yield* refuelingFor(demo, {
          carId,
          dateOfPurchase: at(daysAgo),
          tachometer: km,
          liter: hundredths(centilitres),
          price: hundredths(priceMinor),
          currency: abroad ? EUR : CZK,
          rate: abroad ? 25.215 : 1,
          description: abroad ? 'OMV, Rakousko' : carId === 1 ? 'Shell' : 'Benzina',
        });
        if (!abroad) yield* byCard(priceMinor, daysAgo, 'Tankování', cat('Palivo'));
        refuelings += 1;
      }
    }
    for (let period = 12; period >= 1; period--) {
      const owed = cardSpends.filter((s) => s.daysAgo >= period * 30 && s.daysAgo < period * 30 + 30).reduce((sum, s) => sum + s.minor, 0);
      if (owed > 0) yield* transfer(accounts.bank, accounts.card, owed, period * 30 - 3, 'Splátka karty', cat('Převody'));
    }

    const templates = [
      { accountId: accounts.bank, type: 2, amount: -14_500, description: 'Nájem', categoryId: cat('Nájem'), ord: 1 },
      { accountId: accounts.bank, type: 1, amount: 52_300, description: 'Výplata', categoryId: cat('Mzda'), ord: 2 },
      { accountId: accounts.card, type: 2, amount: -1000, description: 'Nákup potravin', categoryId: cat('Potraviny'), ord: 3 },
      { accountId: accounts.card, type: 2, amount: -1500, description: 'Tankování', categoryId: cat('Palivo'), ord: 4 },
      { accountId: accounts.bank, type: 3, amount: -5000, description: 'Spoření', categoryId: cat('Převody'), ord: 5 },
    ];
    for (const t of templates) yield* createTemplate(demo, t);

    // demo2's household account, which demo may read but not touch.
    const shared = yield* accountFor(demo2, { name: 'Společná domácnost', currency: 203, type: 2, ord: 1 });
    yield* accountFor(demo2, { name: 'Hotovost', currency: 203, type: 1, ord: 2 });
    const household = yield* createCategory(demo2, { Name: 'Domácnost', Id_ParentCategory: 0 });
    yield* book(demo2, shared, 20_000_00, 90, 'Vklad', 0);
    for (let i = 0; i < 8; i++) yield* book(demo2, shared, -amount(300, 2500), 80 - i * 10, 'Drogerie a domácnost', household);
    yield* awaited(store.accounts.grant(shared, ids[0]!, PERMISSION.read));

    return {
      clientKey: DEMO_CLIENT_KEY,
      users: DEMO_USERS.map((u, i) => ({ ...u, id: ids[i]! })),
      accounts,
      sharedAccountId: shared,
      carIds: DEMO_CAR_IDS,
      transactions,
      refuelings,
      templates: templates.length,
    };
  };
}
