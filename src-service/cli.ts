/**
 * The service's command line: `npm run service -- <command> [options]` (see `--help`). Every command
 * exits 0 on success and 1 with a one-line reason on stderr otherwise; `serve` prints exactly one line,
 * its address, on stdout once it is ready.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { KNOWN_CURRENCIES, parseDecimal } from '../src-shared/money';
import { SERVICE_PATH } from '../src-shared/wire';
import { UsageError, codeOption, intOption, parseOptions, type OptionSpec } from './cli-args';
import { readNewPassword } from './cli-password';
import { DataFileError, RuleError, ServiceOptionError, addClient, addTemplate, addUser, createDemoData, setClientEnabled, setPassword, shareAccount, startService, stderrLogger } from './index';
import type { TlsCredentials } from './server/http-server';
import type { Permission } from './store';

const data: OptionSpec = { name: 'data', value: '<file.sqlite>', help: 'the data file (created when missing)', required: true };
const login: OptionSpec = { name: 'login', value: '<login>', help: 'the user', required: true };
const PERMISSIONS = { read: 1, write: 2, owner: 3 };
const TRANSACTION_TYPES = { income: 1, expense: 2, transfer: 3 };

interface Command {
  readonly summary: string;
  readonly options: readonly OptionSpec[];
  readonly notes?: string;
  run(o: Map<string, string>): Promise<void> | void;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'Start the service and print its address when it is ready.',
    options: [
      data,
      { name: 'port', value: '<port>', help: 'TCP port, 0 for any free one (default 8080)' },
      { name: 'host', value: '<address>', help: 'address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)' },
      { name: 'namespace', value: '<uri>', help: 'XML namespace of the operations (default http://tempuri.org/)' },
      { name: 'time-zone', value: '<zone>', help: "IANA zone of the dates (default: this machine's)" },
      { name: 'tls-cert', value: '<file.pem>', help: 'serve HTTPS with this certificate (chain), PEM; needs --tls-key' },
      { name: 'tls-key', value: '<file.pem>', help: "the certificate's private key, PEM" },
    ],
    run: serve,
  },
  demo: {
    summary: 'Create the demo data: client key demo, users demo/demo and demo2/demo2.',
    options: [data],
    run: (o) => {
      const s = createDemoData(o.get('data')!);
      console.log(
        `Demo data created: client key ${s.clientKey}, users ${s.users.map((u) => `${u.login}/${u.password}`).join(' and ')}, ` +
          `${s.transactions} transactions, ${s.refuelings} refuelings.`,
      );
    },
  },
  'add-client': {
    summary: 'Register a client application key (a random one is made and printed when --key is left out).',
    options: [data, { name: 'key', value: '<key>', help: 'the key' }, { name: 'label', value: '<text>', help: 'a note on who uses it' }],
    run: (o) => {
      const key = o.get('key') ?? randomBytes(18).toString('base64url');
      addClient(o.get('data')!, key, o.get('label') ?? '');
      console.log(o.has('key') ? 'Client key registered.' : `Client key registered: ${key}`);
    },
  },
  'disable-client': clientSwitch(false, 'Refuse a client key from now on (also in a running service).'),
  'enable-client': clientSwitch(true, 'Accept a disabled client key again.'),
  'add-user': {
    summary: 'Create a user.',
    options: [data, login, { name: 'currency', value: '<code>', help: "the user's own currency, ISO 4217 (default CZK)" }],
    notes: 'The password comes from BOOKKEEPING_PASSWORD, or is asked for on a terminal.',
    run: async (o) => {
      const currency = o.has('currency') ? currencyOption(o.get('currency')!) : undefined;
      const password = await readNewPassword();
      const id = addUser(o.get('data')!, o.get('login')!, password, currency === undefined ? {} : { currency });
      console.log(`User ${o.get('login')} created with id ${id}.`);
    },
  },
  passwd: {
    summary: "Set a user's password.",
    options: [data, login],
    notes: 'The password comes from BOOKKEEPING_PASSWORD, or is asked for on a terminal.',
    run: async (o) => {
      const password = await readNewPassword();
      setPassword(o.get('data')!, o.get('login')!, password);
      console.log(`Password of ${o.get('login')} changed.`);
    },
  },
  share: {
    summary: 'Give a user a permission on an account.',
    options: [
      data,
      { name: 'account', value: '<id>', help: 'the account id', required: true },
      login,
      { name: 'permission', value: '<read|write|owner>', help: 'or 1, 2, 3', required: true },
    ],
    run: (o) => {
      const permission = codeOption(o.get('permission')!, 'permission', PERMISSIONS) as Permission;
      shareAccount(o.get('data')!, intOption(o.get('account')!, 'account', 1, Number.MAX_SAFE_INTEGER), o.get('login')!, permission);
      console.log(`Account ${o.get('account')} shared with ${o.get('login')} (permission ${permission}).`);
    },
  },
  'add-template': {
    summary: 'Add a transaction template for a user.',
    options: [
      data,
      login,
      { name: 'account', value: '<id>', help: 'an account the user may write to', required: true },
      { name: 'type', value: '<income|expense|transfer>', help: 'or 1, 2, 3', required: true },
      { name: 'amount', value: '<decimal>', help: 'signed, e.g. -14500 or 52300.50', required: true },
      { name: 'description', value: '<text>', help: 'default empty' },
      { name: 'category', value: '<id>', help: "one of the user's categories (default none)" },
      { name: 'ord', value: '<n>', help: 'ordering number (default 0)' },
    ],
    run: (o) => {
      const id = addTemplate(o.get('data')!, o.get('login')!, {
        accountId: intOption(o.get('account')!, 'account', 1, Number.MAX_SAFE_INTEGER),
        type: codeOption(o.get('type')!, 'type', TRANSACTION_TYPES),
        amount: amountOption(o.get('amount')!),
        description: o.get('description') ?? '',
        categoryId: o.has('category') ? intOption(o.get('category')!, 'category', 0, Number.MAX_SAFE_INTEGER) : 0,
        ord: o.has('ord') ? intOption(o.get('ord')!, 'ord', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) : 0,
      });
      console.log(`Template ${id} added.`);
    },
  },
};

function clientSwitch(enabled: boolean, summary: string): Command {
  return {
    summary,
    options: [data, { name: 'key', value: '<key>', help: 'the key', required: true }],
    run: (o) => {
      setClientEnabled(o.get('data')!, o.get('key')!, enabled);
      console.log(`Client key ${enabled ? 'enabled' : 'disabled'}.`);
    },
  };
}

function currencyOption(value: string): number {
  const upper = value.toUpperCase();
  const known = KNOWN_CURRENCIES.find((c) => c.code === upper || String(c.numeric) === value);
  if (!known) throw new UsageError(`--currency ${JSON.stringify(value)} is not an ISO 4217 currency this service knows.`);
  return known.numeric;
}

/** A decimal as text, exact: the number it becomes must show the same decimal again. */
function amountOption(value: string): number {
  const d = parseDecimal(value);
  if (!d || /[eE]/.test(value) || d.units.toString().replace('-', '').length > 15) {
    throw new UsageError('--amount must be a decimal number of at most 15 digits, such as -1520.50.');
  }
  return Number(value);
}

/** The certificate and key of `--tls-cert`/`--tls-key`: both or neither, each a readable PEM file. */
function tlsOptions(o: Map<string, string>): TlsCredentials | undefined {
  const certFile = o.get('tls-cert');
  const keyFile = o.get('tls-key');
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key.');
  const read = (file: string, option: string, marker: RegExp) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`--${option} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}.`);
    }
    if (!marker.test(text)) throw new UsageError(`--${option} ${file} is not a PEM file (no "-----BEGIN" line of the right kind).`);
    return text;
  };
  const tls = { cert: read(certFile, 'tls-cert', /-----BEGIN CERTIFICATE-----/), key: read(keyFile, 'tls-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/) };
  try {
    // The pair is checked now, so that a mismatch is one clear line and not a failed handshake later.
    createSecureContext(tls);
  } catch (e) {
    throw new UsageError(`The certificate and key cannot be used together: ${(e as Error).message}.`);
  }
  return tls;
}

async function serve(o: Map<string, string>): Promise<void> {
  const tls = tlsOptions(o);
  const service = await startService({
    ...(tls ? { tls } : {}),
    dataFile: o.get('data')!,
    port: o.has('port') ? intOption(o.get('port')!, 'port', 0, 65535) : undefined,
    host: o.get('host'),
    namespace: o.get('namespace'),
    timeZone: o.get('time-zone'),
    logger: stderrLogger,
  });
  console.log(`Bookkeeping service listening on ${service.url}${SERVICE_PATH}`);
  // Requests in progress get a few seconds to finish.
  const stop = () => {
    service.close({ graceMs: 5000 }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`);
  return [
    'Usage: npm run service -- <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `npm run service -- <command> --help` for the options of a command.',
  ].join('\n');
}

function commandUsage(name: string, c: Command): string {
  const opts = c.options.map((s) => `  --${s.name} ${s.value}`.padEnd(36) + `${s.help}${s.required ? '' : ' (optional)'}`);
  return [`Usage: npm run service -- ${name} [options]`, '', c.summary, '', 'Options:', ...opts, ...(c.notes ? ['', c.notes] : [])].join('\n');
}

/** One line for a failure: the reason when it is the user's doing, never a stack. */
function reason(e: unknown): string {
  if (e instanceof UsageError || e instanceof RuleError || e instanceof ServiceOptionError || e instanceof DataFileError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return 'The port is already in use.';
  if (code === 'EADDRNOTAVAIL') return 'The address is not one of this machine.';
  if (code === 'EACCES') return 'Permission denied (a port below 1024 needs privileges).';
  return e instanceof Error ? e.message.split('\n', 1)[0]! : String(e);
}

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    if (name === undefined) process.exitCode = 1;
    return;
  }
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`Unknown command ${JSON.stringify(name)}; see --help.`);
  const command = COMMANDS[name]!;
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandUsage(name, command));
    return;
  }
  await command.run(parseOptions(rest, command.options));
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`error: ${reason(e)}\n`);
  process.exitCode = 1;
});
