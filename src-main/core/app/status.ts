/** The status the header shows (connection, outbox counts, the last sync and exchange), and the diagnostics text. */
import type { AppStatus } from '../../../src-shared/app-api';
import { analyzeDependencies, effectiveStatuses } from '../outbox/dependencies';
import { SECRET_NAMES, type SecretName, type SecretStore } from '../secrets';
import { lastExchange } from '../sync/exchanges';
import type { CoreServices } from './core-parts';

async function hasSecret(secrets: SecretStore, name: SecretName): Promise<boolean> {
  const s = secrets as SecretStore & { has?: (n: SecretName) => Promise<boolean> };
  if (s.has) return s.has(name);
  return (await s.get(name)) !== null;
}

export async function coreStatus(core: Omit<CoreServices, 'status'>): Promise<AppStatus> {
  const { store } = core;
  const c = core.link.connection();
  const entries = core.outbox.all();
  const counts = { pending: 0, unknown: 0, undecidable: 0, refused: 0, conflicts: 0, blocked: 0 };
  for (const s of effectiveStatuses(entries, analyzeDependencies(entries)).values()) {
    if (s.status === 'conflict') counts.conflicts++;
    else counts[s.status]++;
  }
  const remembered = c?.rememberPassword !== false;
  const needed = SECRET_NAMES.filter((n) => remembered || n !== 'password');
  const hasSecrets = c ? (await Promise.all(needed.map((n) => hasSecret(core.secrets, n)))).every(Boolean) : false;
  const exchange = c ? lastExchange(store) : null;
  return {
    configured: c !== null,
    workingOffline: store.settings.get('workingOffline'),
    connection: c
      ? {
          baseUrl: c.baseUrl,
          namespace: c.namespace,
          login: c.login,
          binding: c.binding,
          trustedCertificate: c.trustedCertificate ?? null,
          hasSecrets,
          rememberPassword: remembered,
        }
      : null,
    outbox: counts,
    syncing: core.engine.running,
    lastSyncAt: store.settings.get('lastSyncAt'),
    lastSync: store.settings.get('lastSync'),
    offline: exchange?.outcome === 'unreachable',
    exchange,
    damaged: null,
    timeZone: core.timeZone,
  };
}

export interface About {
  dataFile: string;
  version: string;
  runtime: string;
  log: { file: string; tail(lines: number): string } | null;
}

/** Versions, platform, the connection (no secret), the last sync and the log's tail, as text to paste into a report. */
export async function diagnostics(core: CoreServices, about: About): Promise<{ text: string; logFile: string | null }> {
  const status = await core.status();
  const c = status.connection;
  const lines = [
    `Bookkeeping ${about.version} (${about.runtime}) on ${process.platform} ${process.arch}`,
    `Local copy: ${about.dataFile} (schema ${core.store.schemaVersion})`,
    c
      ? `Service: ${c.baseUrl} over ${c.binding}${c.trustedCertificate ? `, trusted certificate ${c.trustedCertificate}` : ''}`
      : 'Service: not connected',
    `Outbox: ${JSON.stringify(status.outbox)}`,
    `Last sync: ${status.lastSync ? JSON.stringify(status.lastSync) : 'never'}`,
  ];
  // The log is written at its first line: until then there is no file to name.
  const tail = about.log?.tail(50) ?? '';
  if (!about.log) lines.push('Log: none kept by this shell');
  else if (tail === '') lines.push(`Log: nothing logged yet (it will be written to ${about.log.file})`);
  else lines.push(`Log: ${about.log.file}`, "--- the log's last 50 lines ---", tail);
  return { text: lines.join('\n'), logFile: tail === '' ? null : about.log!.file };
}
