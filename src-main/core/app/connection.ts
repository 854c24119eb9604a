/**
 * Connecting to a service and the user's preferences: testing an address (its WSDL, then one
 * authenticated read), connecting (the credentials checked before anything is kept), working offline,
 * and the preferences the screens keep in the local copy.
 */
import {
  AppError,
  DEFAULT_PREFERENCES,
  outcomeOf,
  type AppStatus,
  type ConnectionReport,
  type ConnectionWarning,
  type InputOf,
  type Preferences,
} from '../../../src-shared/app-api';
import { OPERATION_NAMES, isNamespaceUri, type Credentials, type OperationName } from '../../../src-shared/catalog';
import type { Binding } from '../../../src-shared/wire';
import type { SecretName } from '../secrets';
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

/** The preferences as the user set them, the defaults for the others. */
export function preferences(core: Pick<CoreServices, 'store'>): Preferences {
  return { ...DEFAULT_PREFERENCES, ...core.store.settings.get('preferences') };
}

export function connectionHandlers(
  core: CoreServices,
): Handlers<'testConnection' | 'connect' | 'workOffline' | 'getPreferences' | 'setPreferences'> {
  const { store, link, secrets } = core;

  /** The trust given, or else the one kept for this same address (a test of the stored service needs no new trust). */
  function trustFor(baseUrl: string, given: string | null | undefined): string | null {
    if (given !== undefined) return pinnedFingerprint(given);
    const c = link.connection();
    return c && c.baseUrl === baseUrl ? (c.trustedCertificate ?? null) : null;
  }

  /**
   * The credentials a test of the connection sends: those typed, each one missing taken from the stored
   * connection when the test is of its address and login. Null when some are still missing. `stored`
   * says the test is of the stored connection as it is (nothing typed), so its outcome is the badge's.
   */
  async function testCredentials(
    baseUrl: string,
    input: InputOf<'testConnection'>,
  ): Promise<{ credentials: Credentials; stored: boolean } | null> {
    const c = link.connection();
    const login = input.login || c?.login;
    const ofStored = c !== null && c.baseUrl === baseUrl && login === c.login;
    const kept = async (name: SecretName): Promise<string | null> => {
      if (!ofStored || (name === 'password' && c.rememberPassword === false)) return null;
      try {
        return await secrets.get(name);
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

  /**
   * Tests a service address: reads its WSDL (namespace, operations), then makes one authenticated read
   * with the credentials given (or stored for this address) to tell "connected" from "credentials refused"
   * and "unreachable". A test of the stored connection as it is records its outcome for the badge.
   */
  async function testConnection(input: InputOf<'testConnection'>): Promise<ConnectionReport> {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    checkNamespace(input.namespace);
    const trusted = trustFor(baseUrl, input.trustedCertificate);
    const failed = (e: unknown, d: ServiceDescription | null): ConnectionReport => {
      const err = core.toAppError(e);
      const certificate = e instanceof CertificateError ? { reason: e.reason, presented: e.certificate, trusted: e.pinned } : null;
      return {
        ok: false,
        state: outcomeOf(classify(e).code) ?? 'service-error',
        baseUrl,
        namespace: input.namespace || d?.namespace || null,
        operations: d?.operations ?? [],
        missing: d?.missing ?? [...OPERATION_NAMES],
        warnings: d ? serviceWarnings(d) : addressWarnings(baseUrl),
        error: err.toData(),
        certificate,
      };
    };
    let description: ServiceDescription | null = null;
    let wsdlError: unknown = null;
    try {
      description = await readService(baseUrl, { timeoutMs: link.timeoutMs(), ...link.carriage(trusted) });
    } catch (e) {
      wsdlError = e;
    }
    const creds = await testCredentials(baseUrl, input);
    const record = (report: ConnectionReport): ConnectionReport => {
      if (creds?.stored && report.state !== 'not-checked') {
        recordExchange(store, { outcome: report.state, at: core.now(), via: 'test', error: report.error });
        void core.changed([]);
      }
      return report;
    };
    // Without a WSDL only a namespace set by hand lets the credentials be tried; never past a refused certificate.
    const namespace = input.namespace || description?.namespace;
    if (wsdlError !== null && (!namespace || wsdlError instanceof CertificateError || !creds)) return record(failed(wsdlError, null));
    const reached: ConnectionReport = {
      ok: false,
      state: 'not-checked',
      baseUrl,
      namespace: namespace ?? null,
      operations: description?.operations ?? [],
      missing: description?.missing ?? [...OPERATION_NAMES],
      warnings: description ? serviceWarnings(description) : addressWarnings(baseUrl),
      error: null,
      certificate: null,
    };
    if (!creds) return reached;
    const c = link.connection();
    const probe = link.clientFor({
      baseUrl,
      namespace: namespace!,
      binding: input.binding ?? (c?.baseUrl === baseUrl ? c.binding : null) ?? store.settings.get('preferredBinding') ?? 'soap12',
      trustedCertificate: trusted,
      available: description?.operations,
      credentials: creds.credentials,
    });
    try {
      await probe.listAccounts();
      return record({ ...reached, ok: true, state: 'connected' });
    } catch (e) {
      return record(failed(e, description));
    } finally {
      probe.close();
    }
  }

  async function connect(input: InputOf<'connect'>): Promise<AppStatus> {
    if (core.engine.running) throw new AppError('syncRunningConnect');
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    checkNamespace(input.namespace);
    const trusted = trustFor(baseUrl, input.trustedCertificate);
    let description: ServiceDescription | null = null;
    try {
      description = await readService(baseUrl, { timeoutMs: link.timeoutMs(), ...link.carriage(trusted) });
    } catch (e) {
      // A namespace set by hand lets a service without a readable WSDL be used; never one whose certificate is refused.
      if (!input.namespace || e instanceof CertificateError) throw core.toAppError(e);
    }
    const binding: Binding = input.binding ?? store.settings.get('preferredBinding') ?? 'soap12';
    const connection: StoredConnection = {
      baseUrl,
      namespace: input.namespace || description!.namespace,
      login: input.login,
      binding,
      operations: description ? description.operations : null,
      trustedCertificate: trusted,
      rememberPassword: input.rememberPassword ?? true,
    };
    // Check the credentials with a cheap read before keeping anything.
    const probe = link.clientFor({
      ...connection,
      trustedCertificate: trusted,
      available: connection.operations ?? undefined,
      credentials: { clientKey: input.clientKey, login: input.login, password: input.password },
    });
    try {
      await probe.listAccounts();
    } finally {
      probe.close();
    }
    const previous = link.connection();
    const sameData = previous && previous.baseUrl === baseUrl && previous.login === input.login;
    if (!sameData && previous) {
      const queued = core.outbox.count();
      if (queued > 0) throw new AppError('outboxHoldsWrites', { count: queued, login: previous.login, address: previous.baseUrl });
      store.serverCopy.clear();
    }
    await secrets.unlock?.(input.password);
    if (connection.rememberPassword) await secrets.set('password', input.password);
    else await secrets.delete('password');
    await secrets.set('clientKey', input.clientKey);
    store.transaction(() => {
      store.settings.set('connection', connection);
      store.settings.set('workingOffline', false);
      // The probe was this connection's first exchange, and it went through.
      recordExchange(store, { outcome: 'connected', at: core.now(), via: 'connect', error: null });
    });
    link.forget();
    await core.changed();
    return core.status();
  }

  async function setPreferences(input: InputOf<'setPreferences'>): Promise<Preferences> {
    const { binding, ...rest } = input;
    const next: Preferences = { ...preferences(core) };
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    store.transaction(() => {
      store.settings.set('preferences', next);
      if (binding) {
        const c = link.connection();
        if (c) store.settings.set('connection', { ...c, binding });
        store.settings.set('preferredBinding', binding);
      }
    });
    return next;
  }

  return {
    testConnection,
    connect,
    workOffline: async () => {
      store.settings.set('workingOffline', true);
      await core.changed([]);
      return core.status();
    },
    getPreferences: async () => preferences(core),
    setPreferences,
  };
}
