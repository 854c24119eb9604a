/**
 * The headless command line, on the same app core as the screens. Every argument is checked here and
 * again by the core; the answer is text (or JSON with --json) on stdout, and exit code 0, or one line
 * on stderr and exit code 1.
 *
 * Secrets: the password is never stored; it comes from BOOKKEEPING_PASSWORD or a prompt, each run
 * that talks to the service. The client key is given once (--key or BOOKKEEPING_CLIENT_KEY) and kept
 * sealed with a key derived from the password (see PromptSecretStore), so later runs need only the password.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, maxInputBytes, type AppApi } from '../../src-shared/app-api';
import { localTimeZone, nowWall, type Binding } from '../../src-shared/wire';
import { createAppCore, type AppCore, type AppCoreOptions } from '../core/app/app-core';
import { appVersion } from '../app-bridge/app-version';
import { openAppLog, type AppLog } from '../core/log/app-log';
import { LocalFileError } from '../core/store/local-file';
import { recoverFromSafetyCopy, safetyCopyDir } from '../core/store/safety-copies';
import { StoreVersionError } from '../core/store/migrations';
import { PromptSecretStore } from '../core/secrets';
import { readCurrency, ValueProblem } from '../core/files/import-values';
import { addressWarnings } from '../core/soap-client';
import { booleanArg, integerArg, parseArgs, UsageError, type OptionSpec, type ParsedArgs } from './args';
import { readLimited, readUtf8, writeNew } from './files';
import * as fmt from './format';
import { Countdown } from './countdown';
import { SYNC_EXIT, syncExitCode } from './exit-codes';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Asks for a secret; null when no one can answer. */
  prompt?: (question: string) => Promise<string | null>;
  /** Extra core options (tests: short timeouts). */
  core?: Partial<AppCoreOptions>;
  /** On a terminal: writes over the current line of stderr (a countdown redrawn in place); absent elsewhere. */
  redraw?: (text: string) => void;
  /** Registers what Ctrl-C does while a command runs (the process edge calls it on SIGINT). */
  onInterrupt?: (handler: (() => void) | null) => void;
}

interface Context {
  core: AppCore;
  args: ParsedArgs;
  json: boolean;
  io: CliIo;
  /** Prints the result: JSON as is, or the text. */
  out(value: unknown, text: string): void;
}

interface Command {
  usage: string;
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Resolves with the exit code, or nothing for 0. */
  run?(ctx: Context): Promise<number | void>;
  /** Instead of `run`: works on the data file's files without opening it (the local copy may be damaged). */
  runOnFiles?(dataFile: string, args: ParsedArgs, io: CliIo): number;
}

const GLOBAL_OPTIONS: Record<string, OptionSpec> = { data: {}, json: { switch: true }, help: { switch: true }, key: {}, 'key-file': {}, log: {} };

/**
 * The client key of --key-file (its first line), or none. A key given as --key itself is refused: the
 * command line ends up in the shell's history and in every user's process list.
 */
function clientKeyOption(options: ReadonlyMap<string, string>): string | undefined {
  if (options.has('key')) {
    throw new UsageError(
      'A client key on the command line ends up in the shell history and the process list: give it in BOOKKEEPING_CLIENT_KEY, in a file with --key-file <file>, or at the prompt.',
    );
  }
  const file = options.get('key-file');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--key-file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}.`);
  }
  const key = text.split(/\r?\n/, 1)[0]!.trim();
  if (!key) throw new UsageError(`--key-file ${file} is empty: its first line must be the client key.`);
  return key;
}
export const DATA_ENV = 'BOOKKEEPING_DATA';

function positional(ctx: Context, index: number, what: string): string {
  const v = ctx.args.positionals[index];
  if (v === undefined) throw new UsageError(`${what} is required.`);
  return v;
}

function noMorePositionals(ctx: Context, count: number): void {
  const extra = ctx.args.positionals[count];
  if (extra !== undefined) throw new UsageError(`Unexpected argument ${JSON.stringify(extra)}.`);
}

const opt = (ctx: Context, name: string) => ctx.args.options.get(name);
const intOpt = (ctx: Context, name: string) => {
  const v = opt(ctx, name);
  return v === undefined ? undefined : integerArg(v, `--${name}`);
};
function required(ctx: Context, name: string): string {
  const v = opt(ctx, name);
  if (v === undefined) throw new UsageError(`--${name} is required.`);
  return v;
}

/** `now` as the wall-clock minute, the default date of a new write. */
function nowMinute(): string {
  return nowWall(localTimeZone()).slice(0, 16);
}

/** The largest files the core takes: a backup travels as base64 (4 characters per 3 bytes), a CSV as JSON text. */
const MAX_BACKUP_FILE_BYTES = Math.floor((maxInputBytes('restoreBackup') * 3) / 4);
const MAX_IMPORT_FILE_BYTES = Math.floor(maxInputBytes('importRefuelings') / 2);

const BINDINGS: Binding[] = ['soap12', 'soap11', 'httpGet', 'httpPost'];

/** Options that set a field of a record an edit command changes: --<option> -> [field, how its text is read]. */
type FieldOptions = Record<string, readonly [field: string, read: (text: string, what: string) => unknown]>;
const asText = (text: string) => text;
const ACCOUNT_FIELDS: FieldOptions = {
  name: ['name', asText],
  description: ['description', asText],
  type: ['type', integerArg],
  ord: ['ord', integerArg],
  active: ['isActive', booleanArg],
  hidden: ['isHidden', booleanArg],
  locked: ['locked', booleanArg],
};
const REFUELING_FIELDS: FieldOptions = {
  car: ['carId', integerArg],
  liter: ['liter', asText],
  price: ['price', asText],
  tachometer: ['tachometer', integerArg],
  currency: ['currency', integerArg],
  rate: ['rate', asText],
  date: ['dateOfPurchase', asText],
  description: ['description', asText],
};
const optionSpecs = (fields: FieldOptions): Record<string, OptionSpec> => Object.fromEntries(Object.keys(fields).map((o) => [o, {}]));

/** The record with the fields the options give replaced; the others keep their values. */
function withOptions<T extends object>(ctx: Context, fields: FieldOptions, current: T): T {
  const out: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [option, [field, read]] of Object.entries(fields)) {
    const text = opt(ctx, option);
    if (text !== undefined) out[field] = read(text, `--${option}`);
  }
  return out as T;
}

async function findRefueling(core: AppApi, id: number) {
  for (const car of await core.listCars()) {
    const r = (await core.listRefuelings({ carId: car.carId })).find((x) => x.id === id);
    if (r) return r;
  }
  throw new AppError('not-found', `Refueling ${id} is not in the local copy (is its car in your car list?).`);
}

/** A command without arguments that prints one read of the core. */
function listing<T>(usage: string, summary: string, read: (core: AppCore) => Promise<T>, text: (value: T) => string): Command {
  return {
    usage,
    summary,
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const value = await read(ctx.core);
      ctx.out(value, text(value));
    },
  };
}

function written(ctx: Context, result: { outboxId: number; id: number }, what: string): void {
  ctx.out(result, `${what} (id ${result.id}); queued as outbox entry ${result.outboxId}. Run "sync" to send it.`);
}

const COMMANDS: Record<string, Command> = {
  recover: {
    usage: 'recover',
    summary: 'Puts the newest safety copy (made before every migration and restore) in place of a local copy that will not open; the damaged file is kept aside.',
    runOnFiles: recover,
  },
  connect: {
    usage:
      'connect --url <baseUrl> --login <login> [--key-file <file>] [--namespace <ns>] [--binding soap12|soap11|httpGet|httpPost] [--trust-certificate <sha256>]',
    summary:
      "Checks the service and the credentials and keeps the connection (password from BOOKKEEPING_PASSWORD or a prompt). --trust-certificate accepts a self-signed service's certificate by its SHA-256 fingerprint, as the refusal shows it; any other is then refused.",
    options: { url: {}, login: {}, namespace: {}, binding: {}, 'trust-certificate': {} },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const binding = opt(ctx, 'binding');
      if (binding !== undefined && !BINDINGS.includes(binding as Binding)) throw new UsageError(`--binding must be one of ${BINDINGS.join(', ')}.`);
      const clientKey = clientKeyOption(ctx.args.options) ?? ctx.io.env.BOOKKEEPING_CLIENT_KEY ?? (await ctx.io.prompt?.('Client key: '));
      if (!clientKey) throw new UsageError('The client key is required: BOOKKEEPING_CLIENT_KEY, --key-file <file> or the prompt.');
      const password = ctx.io.env.BOOKKEEPING_PASSWORD || (await ctx.io.prompt?.('Password: '));
      if (!password) throw new UsageError('The password is required: BOOKKEEPING_PASSWORD or the prompt.');
      const url = required(ctx, 'url');
      // A malformed address is reported by the core below; only a valid one can earn a warning.
      let warnings: string[] = [];
      try {
        warnings = addressWarnings(url);
      } catch {
        // Not an address at all: the core's check below says why.
      }
      for (const warning of warnings) ctx.io.stderr(`warning: ${warning}`);
      const status = await ctx.core.connect({
        baseUrl: url,
        login: required(ctx, 'login'),
        clientKey,
        password,
        ...(opt(ctx, 'namespace') !== undefined ? { namespace: opt(ctx, 'namespace') } : {}),
        ...(binding !== undefined ? { binding: binding as Binding } : {}),
        ...(opt(ctx, 'trust-certificate') !== undefined ? { trustedCertificate: opt(ctx, 'trust-certificate') } : {}),
      });
      ctx.out(status, `Connected to ${status.connection!.baseUrl} as ${status.connection!.login} (namespace ${status.connection!.namespace}). Run "sync" to fetch the data.`);
    },
  },
  diagnostics: {
    usage: 'diagnostics',
    summary: "Prints what a bug report needs: versions, platform, the last sync and the log's last lines (no password or key).",
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const d = await ctx.core.getDiagnostics();
      ctx.out(d, d.text);
    },
  },
  status: {
    usage: 'status',
    summary: 'Shows the connection, the outbox counts and the last sync.',
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const s = await ctx.core.getStatus();
      const c = s.connection;
      const o = s.outbox;
      ctx.out(
        s,
        [
          c ? `Connected to ${c.baseUrl} as ${c.login} over ${c.binding}.` : 'Not connected.',
          `Outbox: ${o.pending} pending, ${o.unknown} unknown, ${o.refused} refused, ${o.conflicts} in conflict, ${o.blocked} blocked.`,
          s.lastSync ? `Last sync ${s.lastSync.finishedAt}: ${fmt.summaryText(s.lastSync)}${s.lastSync.error ? ` Error: ${s.lastSync.error}` : ''}` : 'Never synced.',
        ].join('\n'),
      );
    },
  },
  sync: {
    usage: 'sync',
    summary: `Sends the outbox, then fetches everything from the service. Exit code ${SYNC_EXIT.delivered}: all delivered; ${SYNC_EXIT.refused}: some writes refused or in conflict; ${SYNC_EXIT.unavailable}: service unavailable, writes waiting; ${SYNC_EXIT.cancelled}: cancelled (Ctrl-C).`,
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const countdown = new Countdown(ctx.io);
      const off = ctx.core.onEvent((e) => {
        if (e.type === 'sync-waiting') countdown.start(e.until, e.reason);
        else if (e.type === 'sync-progress' || e.type === 'sync-finished') countdown.stop();
      });
      ctx.io.onInterrupt?.(() => {
        ctx.io.stderr('Cancelling the sync (Ctrl-C again to quit at once)...');
        void ctx.core.cancelSync();
      });
      let summary;
      try {
        summary = await ctx.core.sync();
      } finally {
        countdown.stop();
        off();
        ctx.io.onInterrupt?.(null);
      }
      ctx.out(summary, fmt.summaryText(summary));
      const code = syncExitCode(summary);
      if (code === SYNC_EXIT.failed) {
        const kept = summary.errorCode === 'auth' || summary.errorCode === 'not-connected' || summary.errorCode === 'certificate';
        throw new AppError(kept ? (summary.errorCode as 'auth' | 'not-connected' | 'certificate') : 'service', summary.error ?? 'The sync failed.');
      }
      if (summary.error) ctx.io.stderr(`error: ${summary.error}`);
      return code;
    },
  },
  accounts: {
    usage: 'accounts [--all]',
    summary: 'Lists the accounts with balances (--all: hidden and inactive ones too).',
    options: { all: { switch: true } },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const all = ctx.args.switches.has('all');
      const v = await ctx.core.listAccounts({ includeHidden: all, includeInactive: all });
      ctx.out(v, fmt.accountsText(v));
    },
  },
  transactions: {
    usage: 'transactions <accountId> [--offset <n>] [--limit <n>] [--search <text>]',
    summary: "Lists an account's transactions, newest first.",
    options: { offset: {}, limit: {}, search: {} },
    async run(ctx) {
      const accountId = integerArg(positional(ctx, 0, 'The account id'), 'The account id');
      noMorePositionals(ctx, 1);
      const page = await ctx.core.listTransactions({
        accountId,
        offset: intOpt(ctx, 'offset') ?? 0,
        limit: intOpt(ctx, 'limit') ?? 50,
        ...(opt(ctx, 'search') !== undefined ? { search: opt(ctx, 'search') } : {}),
      });
      ctx.out(page, fmt.transactionsText(page));
    },
  },
  categories: listing('categories', 'Shows the category tree and the favourites.', (core) => core.getCategoryTree(), (tree) => fmt.categoriesText(tree.all, tree.favorites)),
  templates: listing('templates', 'Lists the transaction templates.', (core) => core.listTemplates(), fmt.templatesText),
  cars: listing('cars', 'Lists your cars (the service knows cars only by their CarId).', (core) => core.listCars(), fmt.carsText),
  car: {
    usage: 'car add <carId> <name> | car remove <carId>',
    summary: 'Names a car (its refuelings are fetched on the next sync) or forgets one.',
    async run(ctx) {
      const action = positional(ctx, 0, 'The action (add or remove)');
      const carId = integerArg(positional(ctx, 1, 'The car id'), 'The car id');
      if (action === 'add') {
        const name = positional(ctx, 2, 'The car name');
        noMorePositionals(ctx, 3);
        const list = await ctx.core.saveCar({ carId, name });
        ctx.out(list, fmt.carsText(list));
      } else if (action === 'remove') {
        noMorePositionals(ctx, 2);
        const list = await ctx.core.removeCar({ carId });
        ctx.out(list, fmt.carsText(list));
      } else throw new UsageError(`Unknown car action ${JSON.stringify(action)}; use add or remove.`);
    },
  },
  refuelings: {
    usage: 'refuelings <carId>',
    summary: "Lists a car's refuelings, newest first.",
    async run(ctx) {
      const carId = integerArg(positional(ctx, 0, 'The car id'), 'The car id');
      noMorePositionals(ctx, 1);
      const list = await ctx.core.listRefuelings({ carId });
      ctx.out(list, fmt.refuelingsText(list));
    },
  },
  'add-account': {
    usage: 'add-account --name <name> --currency <code> --type <code> [--description <text>] [--ord <n>] [--hidden] [--inactive] [--locked]',
    summary: 'Queues a new account.',
    options: { name: {}, currency: {}, type: {}, description: {}, ord: {}, hidden: { switch: true }, inactive: { switch: true }, locked: { switch: true } },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const result = await ctx.core.addAccount({
        name: required(ctx, 'name'),
        currency: integerArg(required(ctx, 'currency'), '--currency'),
        type: integerArg(required(ctx, 'type'), '--type'),
        description: opt(ctx, 'description') ?? '',
        ord: intOpt(ctx, 'ord') ?? 0,
        isHidden: ctx.args.switches.has('hidden'),
        isActive: !ctx.args.switches.has('inactive'),
        locked: ctx.args.switches.has('locked'),
      });
      written(ctx, result, 'Account added');
    },
  },
  'edit-account': {
    usage: 'edit-account <id> [--name <name>] [--description <text>] [--type <code>] [--ord <n>] [--active true|false] [--hidden true|false] [--locked true|false]',
    summary: 'Queues a change of an account; fields not given keep their values.',
    options: optionSpecs(ACCOUNT_FIELDS),
    async run(ctx) {
      const id = integerArg(positional(ctx, 0, 'The account id'), 'The account id');
      noMorePositionals(ctx, 1);
      const a = (await ctx.core.listAccounts({ includeHidden: true, includeInactive: true })).accounts.find((x) => x.id === id);
      if (!a) throw new AppError('not-found', `Account ${id} does not exist.`);
      const { name, description, type, ord, isActive, isHidden, locked } = withOptions(ctx, ACCOUNT_FIELDS, a);
      written(ctx, await ctx.core.editAccount({ id, name, description, type, ord, isActive, isHidden, locked }), 'Account change queued');
    },
  },
  transfer: {
    usage: 'transfer --from <accountId> --to <accountId> --amount <decimal> [--date <YYYY-MM-DDTHH:mm>] [--category <id>] [--description <text>]',
    summary: 'Queues a transfer between two accounts of one currency.',
    options: { from: {}, to: {}, amount: {}, date: {}, category: {}, description: {} },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const result = await ctx.core.transfer({
        sourceId: integerArg(required(ctx, 'from'), '--from'),
        targetId: integerArg(required(ctx, 'to'), '--to'),
        amount: required(ctx, 'amount'),
        paymentDate: opt(ctx, 'date') ?? nowMinute(),
        categoryId: intOpt(ctx, 'category') ?? 0,
        description: opt(ctx, 'description') ?? '',
      });
      written(ctx, result, 'Transfer queued');
    },
  },
  'add-category': {
    usage: 'add-category <name> [--parent <id>]',
    summary: 'Queues a new category (top level unless --parent).',
    options: { parent: {} },
    async run(ctx) {
      const name = positional(ctx, 0, 'The category name');
      noMorePositionals(ctx, 1);
      written(ctx, await ctx.core.addCategory({ name, parentId: intOpt(ctx, 'parent') ?? 0 }), 'Category added');
    },
  },
  'rename-category': {
    usage: 'rename-category <id> <name>',
    summary: 'Queues a new name for a category.',
    async run(ctx) {
      const id = integerArg(positional(ctx, 0, 'The category id'), 'The category id');
      const name = positional(ctx, 1, 'The new name');
      noMorePositionals(ctx, 2);
      written(ctx, await ctx.core.renameCategory({ id, name }), 'Rename queued');
    },
  },
  refuel: {
    usage: 'refuel --car <carId> --liter <decimal> --price <decimal> --tachometer <km> [--currency <code>] [--rate <decimal>] [--date <YYYY-MM-DDTHH:mm>] [--description <text>]',
    summary: "Queues a refueling (currency defaults to the car's last one, rate to 1).",
    options: { car: {}, liter: {}, price: {}, tachometer: {}, currency: {}, rate: {}, date: {}, description: {} },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const carId = integerArg(required(ctx, 'car'), '--car');
      let currency = intOpt(ctx, 'currency');
      if (currency === undefined) {
        currency = (await ctx.core.listCars()).find((c) => c.carId === carId)?.lastCurrency ?? undefined;
        if (currency === undefined) throw new UsageError('--currency is required (the car has no earlier refueling to take it from).');
      }
      const result = await ctx.core.addRefueling({
        carId,
        liter: required(ctx, 'liter'),
        price: required(ctx, 'price'),
        tachometer: integerArg(required(ctx, 'tachometer'), '--tachometer'),
        currency,
        rate: opt(ctx, 'rate') ?? '1',
        dateOfPurchase: opt(ctx, 'date') ?? nowMinute(),
        description: opt(ctx, 'description') ?? '',
      });
      written(ctx, result, 'Refueling queued');
    },
  },
  'edit-refuel': {
    usage: 'edit-refuel <id> [--car <carId>] [--liter <decimal>] [--price <decimal>] [--tachometer <km>] [--currency <code>] [--rate <decimal>] [--date <YYYY-MM-DDTHH:mm>] [--description <text>]',
    summary: 'Queues a change of a refueling; fields not given keep their values.',
    options: optionSpecs(REFUELING_FIELDS),
    async run(ctx) {
      const id = integerArg(positional(ctx, 0, 'The refueling id'), 'The refueling id');
      noMorePositionals(ctx, 1);
      const r = await findRefueling(ctx.core, id);
      const { carId, liter, price, tachometer, currency, rate, dateOfPurchase, description } = withOptions(ctx, REFUELING_FIELDS, r);
      written(ctx, await ctx.core.editRefueling({ id, carId, liter, price, tachometer, currency, rate, dateOfPurchase, description }), 'Refueling change queued');
    },
  },
  backup: {
    usage: 'backup --to <file> [--force]',
    summary: 'Writes a backup of the local copy, outbox included; the sealed client key stays out. --force overwrites an existing file.',
    options: { to: {}, force: { switch: true } },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const to = required(ctx, 'to');
      const force = ctx.args.switches.has('force');
      if (!force && existsSync(to)) throw new UsageError(`${to} exists; add --force to overwrite it.`);
      const backup = await ctx.core.createBackup();
      writeNew(to, Buffer.from(backup.data, 'base64'), force);
      ctx.out({ file: to, bytes: backup.bytes, counts: backup.counts }, `Backup written to ${to} (${backup.bytes} bytes): ${fmt.countsText(backup.counts)}.`);
    },
  },
  restore: {
    usage: 'restore --from <file>',
    summary: 'Replaces the local copy, outbox included, with a backup (the connection\'s client key and password stay as they are).',
    options: { from: {} },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const bytes = readLimited(required(ctx, 'from'), MAX_BACKUP_FILE_BYTES, 'a backup');
      const result = await ctx.core.restoreBackup({ data: bytes.toString('base64') });
      const uncertain = result.uncertainWrites
        ? `\n${result.uncertainWrites} write(s) may have reached the service since the backup: see "outbox", check the service, then retry or discard each.`
        : '';
      ctx.out(result, `Restored${result.backedUpAt ? ` the backup of ${result.backedUpAt.replace('T', ' ')}` : ''}: ${fmt.countsText(result.counts)}.${uncertain}`);
    },
  },
  export: {
    usage: 'export transactions|refuelings --out <file> [--force] [--car <id>] [--account <id>] [--category <id>] [--text <t>] [--from <date>] [--to <date>]',
    summary:
      'Writes transactions (whole local history; --account, --category, --text, --from and --to narrow them) or refuelings (all cars, or --car) to a UTF-8 CSV file with a header row and numbers written with a point. --force overwrites an existing file.',
    options: { out: {}, force: { switch: true }, car: {}, account: {}, category: {}, text: {}, from: {}, to: {} },
    async run(ctx) {
      const what = positional(ctx, 0, 'What to export (transactions or refuelings)');
      noMorePositionals(ctx, 1);
      const out = required(ctx, 'out');
      const force = ctx.args.switches.has('force');
      if (!force && existsSync(out)) throw new UsageError(`${out} exists; add --force to overwrite it.`);
      const only = (allowed: string[]) => {
        for (const name of ['car', 'account', 'category', 'text', 'from', 'to']) {
          if (!allowed.includes(name) && opt(ctx, name) !== undefined) throw new UsageError(`--${name} does not apply to ${what}.`);
        }
      };
      let file;
      if (what === 'transactions') {
        only(['account', 'category', 'text', 'from', 'to']);
        file = await ctx.core.exportTransactionsCsv({
          accountId: intOpt(ctx, 'account'),
          categoryId: intOpt(ctx, 'category'),
          text: opt(ctx, 'text'),
          from: opt(ctx, 'from'),
          to: opt(ctx, 'to'),
        });
      } else if (what === 'refuelings') {
        only(['car']);
        file = await ctx.core.exportRefuelingsCsv({ carId: intOpt(ctx, 'car') });
      } else throw new UsageError(`Export transactions or refuelings, not ${JSON.stringify(what.slice(0, 40))}.`);
      writeNew(out, Buffer.from(file.content, 'utf8'), force);
      ctx.out({ file: out, rows: file.rows }, `${file.rows} ${what} written to ${out}.`);
    },
  },
  'fuel-stats': {
    usage: 'fuel-stats <carId> [--from <date>] [--to <date>] [--count-flagged]',
    summary:
      "A car's fuel statistics from the whole local history: consumption between full fills (partial ones carried on), cost per 100 km, price per litre, and per month. Readings that cannot be right are flagged and left out of the distance and consumption unless --count-flagged.",
    options: { from: {}, to: {}, 'count-flagged': { switch: true } },
    async run(ctx) {
      const carId = integerArg(positional(ctx, 0, 'The car id'), 'The car id');
      noMorePositionals(ctx, 1);
      const stats = await ctx.core.getFuelStats({ carId, from: opt(ctx, 'from'), to: opt(ctx, 'to'), includeFlagged: ctx.args.switches.has('count-flagged') });
      ctx.out(stats, fmt.fuelStatsText(stats));
    },
  },
  'import-refuelings': {
    usage: 'import-refuelings --car <carId> --file <csv> [--currency <CZK|203>] [--dry-run]',
    summary:
      "Imports refuelings from a UTF-8 CSV with a header row (columns found by their English or Czech names), queued as new refuelings; rows with problems and duplicates are listed and skipped. --currency is for rows without one (default: the car's last); --dry-run only shows what would be imported.",
    options: { car: {}, file: {}, currency: {}, 'dry-run': { switch: true } },
    async run(ctx) {
      noMorePositionals(ctx, 0);
      const carId = integerArg(required(ctx, 'car'), '--car');
      const content = readUtf8(required(ctx, 'file'), MAX_IMPORT_FILE_BYTES, 'an import');
      const currencyText = opt(ctx, 'currency');
      let currency: number | undefined;
      if (currencyText !== undefined) {
        try {
          currency = readCurrency(currencyText);
        } catch (e) {
          if (e instanceof ValueProblem) throw new UsageError(`--currency: ${e.message}`);
          throw e;
        }
      } else {
        currency = (await ctx.core.listCars()).find((c) => c.carId === carId)?.lastCurrency ?? undefined;
        if (currency === undefined) throw new UsageError('--currency is required (the car has no earlier refueling to take it from).');
      }
      const input = { carId, content, currency };
      const preview = await ctx.core.previewRefuelingImport(input);
      if (ctx.args.switches.has('dry-run')) {
        ctx.out({ preview, result: null }, `${fmt.importPreviewText(preview)}\nDry run: nothing was queued.`);
        return;
      }
      const result = await ctx.core.importRefuelings(input);
      ctx.out(
        { preview, result },
        `${fmt.importPreviewText(preview)}\n${result.queued} refueling(s) queued, ${result.skipped} row(s) skipped. Run "sync" to send them.`,
      );
    },
  },
  outbox: {
    usage: 'outbox | outbox retry <id> | outbox discard <id>',
    summary: 'Lists the queued writes with status and message, or retries or discards one.',
    async run(ctx) {
      const action = ctx.args.positionals[0];
      if (action === undefined) {
        const list = await ctx.core.listOutbox();
        ctx.out(list, fmt.outboxText(list));
        return;
      }
      const id = integerArg(positional(ctx, 1, 'The outbox entry id'), 'The outbox entry id');
      noMorePositionals(ctx, 2);
      if (action === 'retry') {
        const list = await ctx.core.retryOutbox({ id });
        ctx.out(list, `Entry ${id} will be sent with the next sync.\n${fmt.outboxText(list)}`);
      } else if (action === 'discard') {
        const list = await ctx.core.discardOutbox({ id });
        ctx.out(list, `Entry ${id} discarded.\n${fmt.outboxText(list)}`);
      } else throw new UsageError(`Unknown outbox action ${JSON.stringify(action)}; use retry or discard.`);
    },
  },
};

export function helpText(command?: string): string {
  const c = command ? COMMANDS[command] : undefined;
  if (c) return `Usage: npm run cli -- ${c.usage} --data <local.sqlite> [--json]\n\n${c.summary}`;
  const lines = Object.values(COMMANDS).map((x) => `  ${x.usage}\n      ${x.summary}`);
  return [
    'Usage: npm run cli -- <command> [arguments] --data <local.sqlite> [--json]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options for every command:',
    '  --data <file>   the local copy (or BOOKKEEPING_DATA)',
    '  --json          machine-readable output',
    '  --key-file <f>  a file whose first line is the client key, when the service is asked (else BOOKKEEPING_CLIENT_KEY,',
    '                  the prompt, or the one kept sealed by connect); never the key itself on the command line',
    '  --log <file>    where unexpected failures are logged (default: the data file\'s name with .log)',
    '  --help          this text, or a command\'s with "<command> --help"',
    '',
    'The password comes from BOOKKEEPING_PASSWORD or a prompt, each time the service is asked; it is never stored.',
    'Exit code 0 on success, 1 with a one-line reason on stderr on failure; "sync --help" tells its own codes.',
  ].join('\n');
}

/** The version in package.json (the command line runs from the project's sources). */
const APP_VERSION = appVersion(join(import.meta.dirname, '..', '..'));

/** `recover`: the newest safety copy in place of a local copy that will not open; the damaged one moved aside. */
function recover(dataFile: string, args: ParsedArgs, io: CliIo): number {
  if (args.positionals.length > 0) throw new UsageError(`Unexpected argument ${JSON.stringify(args.positionals[0])}.`);
  const done = recoverFromSafetyCopy(dataFile);
  if (!done) throw new UsageError(`There is no safety copy of ${dataFile} (they are kept in ${safetyCopyDir(dataFile)}); restore a backup you made instead.`);
  const text = `Recovered ${dataFile} from the safety copy of ${done.restored.at} (${done.restored.reason}); the damaged file is kept as ${done.movedAside}.`;
  io.stdout(args.switches.has('json') ? JSON.stringify({ restored: done.restored, movedAside: done.movedAside }, null, 2) : text);
  return 0;
}

/** The commands' names (for tests that run every one). */
export const CLI_COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Runs one command line; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let core: AppCore | null = null;
  let appLog: AppLog | null = null;
  try {
    const name = argv[0];
    if (name === undefined || name === '--help' || name === 'help') {
      io.stdout(helpText(argv[1]));
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command ${JSON.stringify(name)}; see --help.`);
    const args = parseArgs(argv.slice(1), { ...GLOBAL_OPTIONS, ...command.options });
    if (args.switches.has('help')) {
      io.stdout(helpText(name));
      return 0;
    }
    const dataFile = args.options.get('data') ?? io.env[DATA_ENV];
    if (!dataFile) throw new UsageError('--data <local.sqlite> is required (or set BOOKKEEPING_DATA).');
    if (command.runOnFiles) return command.runOnFiles(dataFile, args, io);
    const key = clientKeyOption(args.options);
    // Beside the data file unless --log says where; written only when there is something to log.
    appLog = openAppLog(args.options.get('log') ?? `${dataFile}.log`);
    core = createAppCore({
      ...io.core,
      dataFile,
      secrets: (persistence) =>
        new PromptSecretStore({ persistence, env: io.env, ...(key !== undefined ? { clientKey: key } : {}), ...(io.prompt ? { prompt: io.prompt } : {}) }),
      appLog,
      about: { version: APP_VERSION, runtime: `Node ${process.versions.node}` },
    });
    const json = args.switches.has('json');
    return (await command.run!({ core, args, json, io, out: (value, text) => io.stdout(json ? JSON.stringify(value, null, 2) : text) })) ?? 0;
  } catch (e) {
    let message = e instanceof UsageError || e instanceof AppError || e instanceof LocalFileError || e instanceof StoreVersionError ? e.message : 'Unexpected failure.';
    if (e instanceof AppError && e.code === 'not-connected' && core) {
      message += ' Set BOOKKEEPING_PASSWORD or answer the prompt; give the client key (BOOKKEEPING_CLIENT_KEY or --key-file) if it is not kept yet.';
    }
    if (e instanceof AppError && e.code === 'certificate') {
      // The core's words point at the screens' Connection settings; here trust is given on the command line.
      message = message.replace(/ in Connection settings\.$/, ': run connect again with --trust-certificate <fingerprint>.');
    }
    io.stderr(`error: ${message.replace(/\s+/g, ' ').trim()}`);
    return 1;
  } finally {
    await core?.close();
    appLog?.close();
  }
}
