/**
 * The link to the stored service: the connection settings, and the SOAP client made from them (kept
 * between syncs for its kept-alive connections, made again when the settings change). The password of
 * the sync running now, when the user typed it for this sync, is held here for that sync only.
 */
import { AppError } from '../../../src-shared/app-api';
import type { Credentials, OperationName } from '../../../src-shared/catalog';
import type { Binding } from '../../../src-shared/wire';
import type { SecretStore } from '../secrets';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, SoapClient, type TransportFactory } from '../soap-client';
import type { StoredConnection } from '../store/settings';
import type { Store } from '../store/store';

export interface LinkOptions {
  timeZone: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  transport?: TransportFactory;
  /** Kept-alive connections: as many as a sync may have requests in flight. */
  maxSockets: () => number;
}

/** What a client to one service address needs besides the options the link was made with. */
export interface ClientTarget {
  baseUrl: string;
  namespace: string;
  binding: Binding;
  trustedCertificate: string | null;
  available?: readonly OperationName[] | undefined;
  credentials: Credentials | (() => Promise<Credentials>);
}

export class ServiceLink {
  private client: { key: string; client: SoapClient } | null = null;
  /** The password given for the sync running now (asked at each sync, or typed again after a refusal). */
  syncPassword: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretStore,
    readonly options: LinkOptions,
  ) {}

  connection(): StoredConnection | null {
    return this.store.settings.get('connection');
  }

  /** The transport and the certificate it accepts beside the authorities', for every exchange with the service. */
  carriage(trustedCertificate: string | null): { transport?: TransportFactory; trustedCertificate: string | null } {
    return { ...(this.options.transport ? { transport: this.options.transport } : {}), trustedCertificate };
  }

  timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A client to any address (a test or a probe before connecting), with the link's options. */
  clientFor(target: ClientTarget, maxSockets?: number): SoapClient {
    return new SoapClient({
      baseUrl: target.baseUrl,
      namespace: target.namespace,
      binding: target.binding,
      timeoutMs: this.timeoutMs(),
      maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeZone: this.options.timeZone,
      ...(maxSockets === undefined ? {} : { maxSockets }),
      ...this.carriage(target.trustedCertificate),
      available: target.available,
      credentials: target.credentials,
    });
  }

  /** The client for the stored connection, reused between syncs for its kept-alive connections. */
  async soapClient(): Promise<SoapClient> {
    const c = this.connection();
    if (!c) throw new AppError('notConnected');
    const key = JSON.stringify(c);
    if (this.client?.key === key) return this.client.client;
    this.client?.client.close();
    const client = this.clientFor(
      {
        ...c,
        trustedCertificate: c.trustedCertificate ?? null,
        available: c.operations ?? undefined,
        credentials: async () => {
          // The password first: where no keychain exists, the client key is sealed under it.
          const password = this.syncPassword ?? (c.rememberPassword === false ? null : await this.secrets.get('password'));
          if (!password) throw new AppError('passwordNeeded');
          await this.secrets.unlock?.(password);
          const clientKey = await this.secrets.get('clientKey');
          if (!clientKey) throw new AppError('clientKeyUnavailable');
          return { clientKey, login: c.login, password };
        },
      },
      this.options.maxSockets(),
    );
    this.client = { key, client };
    return client;
  }

  /** Credentials are read afresh at the next call (the password given now, or the one stored). */
  forgetCredentials(): void {
    this.client?.client.forgetCredentials();
  }

  /** Forgets the client, after the stored connection may have changed. */
  forget(): void {
    this.client?.client.close();
    this.client = null;
  }
}
