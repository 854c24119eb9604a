/**
 * Connecting to a service: testing an address (its WSDL, then one authenticated read), connecting (the
 * credentials checked before anything is kept), and working offline. The user's preferences have their
 * own handlers (preference-handlers.ts).
 */
import {
  AppError,
  outcomeOf,
  type AppStatus,
  type ConnectionReport,
  type ConnectionWarning,
  type InputOf,
} from '../../../src-shared/app-api';
import { OPERATION_NAMES, isNamespaceUri, type Credentials, type OperationName } from '../../../src-shared/catalog';
import type { SecretName, SecretStore } from '../secrets';
import {
  connect as readService,
  CertificateError,
  addressWarnings,
  normalizeBaseUrl,
  pinnedFingerprint,
  type ServiceDescription,
} from '../soap-client';
import type { StoredConnection } from '../store/settings';
import { classify } from '../sync/engine';
import { recordExchange } from '../sync/exchanges';
import type { CoreServices, Handlers } from './core-parts';
import type { ServiceLink } from './service-link';

/** The operations a working client needs one of (the "2" variant or its older one) or needs outright. */
const NEEDED: readonly (readonly OperationName[])[] = [
  ['AccountListWithAmount2', 'AccountListWithAmount'],
  ['TransactionListLast50_2', 'TransactionListLast50'],
  ['DefineTransactionList2', 'DefineTransactionList'],
  ['CategoryTree'],
  ['CarFuelList'],
  ['AddAccount'],
  ['EditAccount'],
  ['AddTranferToOtherAccount'],
  ['AddCategory'],
  ['EditCategory'],
  ['EditCarFuel'],
];

function serviceWarnings(d: ServiceDescription): ConnectionWarning[] {
  const out = [...d.warnings];
  for (const group of NEEDED) {
    if (group.some((op) => d.operations.includes(op))) {
      if (group.length > 1 && !d.operations.includes(group[0]!)) {
        out.push({ code: 'olderOperation', params: { wanted: group[0]!, used: group[1]! } });
      }
    } else out.push({ code: 'operationMissing', params: { operations: group.join(', ') } });
  }
  return out;
}

/** A namespace set by hand goes into every request's XML and headers: it must be a URI. */
function checkNamespace(raw: string | undefined): void {
  if (raw && !isNamespaceUri(raw)) throw new AppError('badNamespace', {}, 'namespace');
}

export function connectionHandlers(core: CoreServices): Handlers<'testConnection' | 'connect' | 'workOffline'> {
  return {
    testConnection: (input) => testConnection(core, input),
    connect: (input) => connect(core, input),
    workOffline: async () => {
      core.store.settings.set('workingOffline', true);
      await core.changed([]);
      return core.status();
    },
  };
}

// ---- the service's description --------------------------------------------------------------------

/** The trust given, or else the one kept for this same address (a test of the stored service needs no new trust). */
function trustFor(link: ServiceLink, baseUrl: string, given: string | null | undefined): string | null {
  if (given !== undefined) return pinnedFingerprint(given);
  const c = link.connection();
  return c && c.baseUrl === baseUrl ? (c.trustedCertificate ?? null) : null;
}

/** The service's WSDL read, or why it could not be. */
type Described = { description: ServiceDescription; error?: never } | { description: null; error: unknown };

async function describe(link: ServiceLink, baseUrl: string, trusted: string | null): Promise<Described> {
  try {
    return { description: await readService(baseUrl, { timeoutMs: link.timeoutMs(), ...link.carriage(trusted) }) };
  } catch (error) {
    return { description: null, error };
  }
}

// ---- testing a connection ---------------------------------------------------------------------------

/**
 * Tests a service address: reads its WSDL (namespace, operations), then makes one authenticated read
 * with the credentials given (or stored for this address) to tell "connected" from "credentials refused"
 * and "unreachable". A test of the stored connection as it is records its outcome for the badge.
 */
async function testConnection(core: CoreServices, input: InputOf<'testConnection'>): Promise<ConnectionReport> {
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  checkNamespace(input.namespace);
  const trusted = trustFor(core.link, baseUrl, input.trustedCertificate);
  const { description, error } = await describe(core.link, baseUrl, trusted);
  const creds = await testCredentials(core, baseUrl, input);
  const record = (report: ConnectionReport) => recordTest(core, creds, report);
  // Without a WSDL only a namespace set by hand lets the credentials be tried; never past a refused certificate.
  const namespace = input.namespace || description?.namespace;
  if (description === null && (!namespace || error instanceof CertificateError || !creds)) {
    return record(failedReport(core, input, baseUrl, error, null));
  }
  const reached = reachedReport(baseUrl, namespace ?? null, description);
  if (!creds) return reached;
  const c = core.link.connection();
  const probe = core.link.clientFor({
    baseUrl,
    namespace: namespace!,
    binding: input.binding ?? (c?.baseUrl === baseUrl ? c.binding : null) ?? core.store.settings.get('preferredBinding') ?? 'soap12',
    trustedCertificate: trusted,
    available: description?.operations,
    credentials: creds.credentials,
  });
  try {
    await probe.listAccounts();
    return record({ ...reached, ok: true, state: 'connected' });
  } catch (e) {
    return record(failedReport(core, input, baseUrl, e, description));
  } finally {
    probe.close();
  }
}

/**
 * The credentials a test of the connection sends: those typed, each one missing taken from the stored
 * connection when the test is of its address and login. Null when some are still missing. `stored`
 * says the test is of the stored connection as it is (nothing typed), so its outcome is the badge's.
 */
async function testCredentials(
  core: CoreServices,
  baseUrl: string,
  input: InputOf<'testConnection'>,
): Promise<{ credentials: Credentials; stored: boolean } | null> {
  const c = core.link.connection();
  const login = input.login || c?.login;
  const ofStored = c !== null && c.baseUrl === baseUrl && login === c.login;
  const kept = async (name: SecretName): Promise<string | null> => {
    if (!ofStored || (name === 'password' && c.rememberPassword === false)) return null;
    try {
      return await core.secrets.get(name);
    } catch {
      // A keychain that cannot be read now: the test says the credentials are not checked.
      return null;
    }
  };
  const clientKey = input.clientKey || (await kept('clientKey'));
  const password = input.password || (await kept('password'));
  if (!clientKey || !login || !password) return null;
  return { credentials: { clientKey, login, password }, stored: ofStored && !input.clientKey && !input.password && !input.login };
}

/** A test of the stored connection as it is that reached a verdict is the badge's last exchange. */
function recordTest(core: CoreServices, creds: { stored: boolean } | null, report: ConnectionReport): ConnectionReport {
  if (creds?.stored && report.state !== 'not-checked') {
    recordExchange(core.store, { outcome: report.state, at: core.now(), via: 'test', error: report.error });
    void core.changed([]);
  }
  return report;
}

/** What the test found before the credentials were tried: the address answers, with this description (if any). */
function reachedReport(baseUrl: string, namespace: string | null, d: ServiceDescription | null): ConnectionReport {
  return {
    ok: false,
    state: 'not-checked',
    baseUrl,
    namespace,
    operations: d?.operations ?? [],
    missing: d?.missing ?? [...OPERATION_NAMES],
    warnings: d ? serviceWarnings(d) : addressWarnings(baseUrl),
    error: null,
    certificate: null,
  };
}

/** A test that failed: reading the WSDL (no description) or the authenticated read. */
function failedReport(
  core: CoreServices,
  input: InputOf<'testConnection'>,
  baseUrl: string,
  e: unknown,
  d: ServiceDescription | null,
): ConnectionReport {
  const certificate = e instanceof CertificateError ? { reason: e.reason, presented: e.certificate, trusted: e.pinned } : null;
  return {
    ...reachedReport(baseUrl, input.namespace || d?.namespace || null, d),
    state: outcomeOf(classify(e).code) ?? 'service-error',
    error: core.toAppError(e).toData(),
    certificate,
  };
}

// ---- connecting -------------------------------------------------------------------------------------

/**
 * Connects: the service read, the credentials checked with a cheap read, and only then the connection,
 * the credentials and the first exchange kept. Another service or login starts from an empty server copy.
 */
async function connect(core: CoreServices, input: InputOf<'connect'>): Promise<AppStatus> {
  if (core.engine.running) throw new AppError('syncRunningConnect');
  const connection = await connectionFor(core, input);
  await checkCredentials(core.link, connection, input);
  leavePreviousData(core, connection);
  await keepCredentials(core.secrets, input);
  core.store.transaction(() => {
    core.store.settings.set('connection', connection);
    core.store.settings.set('workingOffline', false);
    // The probe was this connection's first exchange, and it went through.
    recordExchange(core.store, { outcome: 'connected', at: core.now(), via: 'connect', error: null });
  });
  core.link.forget();
  await core.changed();
  return core.status();
}

/** The connection to keep, from the input and the service's description. */
async function connectionFor(core: CoreServices, input: InputOf<'connect'>): Promise<StoredConnection> {
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  checkNamespace(input.namespace);
  const trusted = trustFor(core.link, baseUrl, input.trustedCertificate);
  const { description, error } = await describe(core.link, baseUrl, trusted);
  // A namespace set by hand lets a service without a readable WSDL be used; never one whose certificate is refused.
  if (description === null && (!input.namespace || error instanceof CertificateError)) throw core.toAppError(error);
  return {
    baseUrl,
    namespace: input.namespace || description!.namespace,
    login: input.login,
    binding: input.binding ?? core.store.settings.get('preferredBinding') ?? 'soap12',
    operations: description ? description.operations : null,
    trustedCertificate: trusted,
    rememberPassword: input.rememberPassword ?? true,
  };
}

/** One cheap read with the credentials given, before anything is kept. */
async function checkCredentials(link: ServiceLink, connection: StoredConnection, input: InputOf<'connect'>): Promise<void> {
  const probe = link.clientFor({
    ...connection,
    trustedCertificate: connection.trustedCertificate ?? null,
    available: connection.operations ?? undefined,
    credentials: { clientKey: input.clientKey, login: input.login, password: input.password },
  });
  try {
    await probe.listAccounts();
  } finally {
    probe.close();
  }
}

/** Another service or login: the server copy is left behind, refused while the outbox holds writes for the one before. */
function leavePreviousData(core: CoreServices, next: StoredConnection): void {
  const previous = core.link.connection();
  if (!previous || (previous.baseUrl === next.baseUrl && previous.login === next.login)) return;
  const queued = core.outbox.count();
  if (queued > 0) throw new AppError('outboxHoldsWrites', { count: queued, login: previous.login, address: previous.baseUrl });
  core.store.clearServerCopy();
}

/** The password kept (or forgotten, when it is to be asked at each sync) and the client key. */
async function keepCredentials(secrets: SecretStore, input: InputOf<'connect'>): Promise<void> {
  await secrets.unlock?.(input.password);
  if (input.rememberPassword ?? true) await secrets.set('password', input.password);
  else await secrets.delete('password');
  await secrets.set('clientKey', input.clientKey);
}
