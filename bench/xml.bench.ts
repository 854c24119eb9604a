/**
 * Why the client and the service read XML with saxes and not fast-xml-parser, which the design named:
 * both parse the project's own wire shapes (SOAP 1.2 answers written by the service's own encoder), side
 * by side in one run, rounds interleaved so that a busy machine slows both alike.
 *
 * - `saxes tree`: src-shared/wire's parseXml, what every answer goes through (well-formedness checked,
 *   namespaces resolved, DOCTYPE refused, depth and size capped).
 * - `saxes typed`: parseResponse, the whole read the client does (tree, envelope, every value typed and
 *   checked: longs, exact doubles, dateTimes).
 * - `fxp`: fast-xml-parser's XMLParser into plain objects, values left as text, entities of its own off
 *   (the closest to what the tree gives; it neither checks well-formedness nor resolves namespaces).
 * - `fxp validated`: XMLValidator.validate, then the parse: what a well-formedness check costs there.
 *
 * Options: --rounds=<n> (default 7), --ms=<per case and round> (default 150).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ApiAccount2, ApiCarFuel, ApiCategory, ApiTransaction2, OperationName, ResultOf } from '../src-shared/catalog';
import { buildResponse, parseResponse, parseXml, type WireResponse } from '../src-shared/wire';

const NAMESPACE = 'http://tempuri.org/';
const TIME_ZONE = 'Europe/Prague';

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const value = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** A small seeded generator: the same shapes every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const WORDS = ['Nákup', 'Benzín', 'Nájem', 'Výplata', 'Obchod 42', 'Café & Co.', 'Lékárna', 'Přeprava <MHD>', 'Dárek', ''];

function shapes(): { name: string; operation: OperationName; response: WireResponse }[] {
  const random = seeded(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const cents = () => Math.round((random() - 0.6) * 500_000) / 100;
  const date = (i: number) => new Date(Date.UTC(2026, 10, 27, 12) - i * 86_400_000).toISOString().slice(0, 19);

  const transactions: ApiTransaction2[] = Array.from({ length: 50 }, (_, i) => ({
    Id: 100_000 - i,
    Id_User: 7,
    Id_UserCreated: 7,
    Id_Account: 12,
    PaymentDate: date(i),
    Type: random() < 0.1 ? 3 : 2,
    Amount: cents(),
    Description: pick(WORDS),
    Id_Category: 1 + Math.floor(random() * 40),
  }));
  const accounts: ApiAccount2[] = Array.from({ length: 20 }, (_, i) => ({
    Id: 10 + i,
    Name: `${pick(WORDS)} ${i}`,
    Type: 1 + (i % 6),
    Currency: i % 4 === 0 ? 978 : 203,
    IsActive: true,
    Locked: false,
    Description: pick(WORDS),
    Ord: i,
    UserAccountPermission: 3,
    Amount: cents() * 10,
    IsHidden: i % 7 === 0,
  }));
  const refuelings: ApiCarFuel[] = Array.from({ length: 50 }, (_, i) => ({
    Id: 5_000 - i,
    Id_UserCreated: 7,
    DateOfPurchase: date(i * 9),
    Id_Car: 3,
    Tachometer: 120_000 - i * 640,
    Liter: Math.round((30 + random() * 20) * 100) / 100,
    Price: Math.round((1_500 + random() * 600) * 100) / 100,
    Description: pick(WORDS),
    Currency: 203,
    Rate: 1,
  }));
  let id = 1;
  const category = (depth: number): ApiCategory => ({
    Id: id++,
    Name: pick(WORDS) || 'Ostatní',
    ChildCategories: depth < 2 ? Array.from({ length: 3 }, () => category(depth + 1)) : null,
  });
  const all = Array.from({ length: 5 }, () => category(0));
  const answer = <N extends OperationName>(operation: N, result: ResultOf<N>) => buildResponse('soap12', operation, result, NAMESPACE);
  return [
    { name: '50 transactions', operation: 'TransactionListLast50_2', response: answer('TransactionListLast50_2', transactions) },
    { name: '20 accounts', operation: 'AccountListWithAmount2', response: answer('AccountListWithAmount2', accounts) },
    { name: '50 refuelings', operation: 'CarFuelList', response: answer('CarFuelList', refuelings) },
    {
      name: '65 categories',
      operation: 'CategoryTree',
      response: answer('CategoryTree', {
        FavoritCategories: all.slice(0, 2).map((c) => ({ ...c, ChildCategories: null })),
        AllCategories: all,
      }),
    },
  ];
}

type Reader = (shape: { operation: OperationName; response: WireResponse }) => unknown;

const fxp = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

const READERS: Record<string, Reader> = {
  'saxes tree': ({ response }) => parseXml(response.body),
  'saxes typed': ({ operation, response }) => parseResponse(operation, response, { timeZone: TIME_ZONE, binding: 'soap12' }),
  fxp: ({ response }) => fxp.parse(response.body) as unknown,
  'fxp validated': ({ response }) => {
    if (XMLValidator.validate(response.body) !== true) throw new Error('not well-formed');
    return fxp.parse(response.body) as unknown;
  },
};

/** Microseconds per read over `ms` of repeated reads. */
function measure(read: Reader, shape: Parameters<Reader>[0], ms: number): number {
  for (let i = 0; i < 50; i++) read(shape);
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 20; i++) read(shape);
    n += 20;
    now = performance.now();
  }
  return ((now - start) * 1000) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, 'rounds', 7);
  const ms = option(args, 'ms', 150);
  const cases = shapes();
  const names = Object.keys(READERS);
  const times = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const shape of cases) {
      // Each round in another order of readers, so that none always runs first (a warmer cache, a quieter core).
      const order = r % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const key = `${shape.name}\t${name}`;
        times.set(key, [...(times.get(key) ?? []), measure(READERS[name]!, shape, ms)]);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  console.log(`XML reading, SOAP 1.2 answers from the service's own encoder; median of ${rounds} interleaved rounds, µs per answer`);
  console.log(['answer', 'bytes', ...names, 'fxp / saxes tree', 'fxp validated / saxes tree'].join('\t'));
  for (const shape of cases) {
    const t = (name: string) => median(times.get(`${shape.name}\t${name}`)!);
    const base = t('saxes tree');
    console.log(
      [
        shape.name,
        Buffer.byteLength(shape.response.body),
        ...names.map((n) => t(n).toFixed(1)),
        (t('fxp') / base).toFixed(2),
        (t('fxp validated') / base).toFixed(2),
      ].join('\t'),
    );
  }
}
