// @vitest-environment happy-dom
/**
 * Why a sync stopped and why a test of the connection failed cross the app API as data ({ code, params }):
 * the banner and the report word them in the user's language by their code, never showing the core's
 * English sentence.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mount } from '@vue/test-utils';
import Database from 'better-sqlite3';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readCsv } from '../../src-main/core/files/csv-reader';
import { EncryptedSecretStore, type SecretPersistence } from '../../src-main/core/secrets';
import {
  NetworkError,
  ProxyError,
  RetriesExhausted,
  TimeoutError,
  UnavailableError,
  normalizeBaseUrl,
  pinnedFingerprint,
} from '../../src-main/core/soap-client';
import { inspectLocalFile } from '../../src-main/core/store/local-file';
import { migrate } from '../../src-main/core/store/migrations';
import { accountFromApi } from '../../src-main/core/store/rows';
import { classify } from '../../src-main/core/sync/engine';
import ConnectionReportAlert from '../../src-renderer/src/components/ConnectionReportAlert.vue';
import SyncSummaryBanner from '../../src-renderer/src/components/SyncSummaryBanner.vue';
import { codeText, type Translate } from '../../src-renderer/src/composables/errors';
import { i18n } from '../../src-renderer/src/i18n';
import { useSyncStore } from '../../src-renderer/src/stores/sync';
import { AppError, englishText, type ConnectionReport, type SyncSummary } from '../../src-shared/app-api';
import type { ApiAccount2 } from '../../src-shared/catalog';
import { caught, rejection } from '../support/caught';
import { readBothLanguages } from '../support/messages';
import { standIn } from './stand-in';

beforeAll(readBothLanguages);

let pinia: ReturnType<typeof createPinia>;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  standIn({});
});
afterEach(() => {
  i18n.global.locale.value = 'cs';
});

const unavailable = { code: 'serviceUnavailable' as const, params: { waiting: 2, detail: 'HTTP 503' } };
const summary: SyncSummary = {
  startedAt: '2026-11-21T10:00:00',
  finishedAt: '2026-11-21T10:00:05',
  first: false,
  pushed: 0,
  refused: 0,
  conflicts: 0,
  unknown: 0,
  undecidable: 0,
  waiting: 2,
  pulled: null,
  received: null,
  error: unavailable,
  errorCode: 'unavailable',
};

/** The banner showing a sync's summary (by default the unavailable one above). */
function banner(shown: SyncSummary = summary) {
  useSyncStore().summary = shown;
  return mount(SyncSummaryBanner, { global: { plugins: [pinia, i18n], stubs: { RouterLink: true } } });
}

describe('a stopped sync and a failed test, in the user’s language', () => {
  it('the summary banner words the error by its code, in Czech and in English', async () => {
    i18n.global.locale.value = 'cs';
    const w = banner();
    expect(w.text()).toContain('Služba není dostupná: HTTP 503');
    i18n.global.locale.value = 'en';
    await w.vm.$nextTick();
    expect(w.text()).toContain('The service is unavailable: HTTP 503');
    // Not the core's English sentence (the command line's).
    expect(w.text()).not.toContain(englishText(unavailable.code, unavailable.params));
  });

  it('a sync that leaves writes it could not decide says so in both languages, as a problem the outbox shows', async () => {
    const left: SyncSummary = { ...summary, pushed: 1, undecidable: 2, waiting: 2, error: null, errorCode: null };
    i18n.global.locale.value = 'cs';
    const w = banner(left);
    expect(w.text()).toContain('2 změny už možná ve službě jsou: ověřte to tam a pak je pošlete znovu, nebo zahoďte');
    expect(w.text()).toContain('některé změny ale vyžadují váš zásah');
    i18n.global.locale.value = 'en';
    await w.vm.$nextTick();
    expect(w.text()).toContain('2 changes may be on the service: check there, then send them again or discard them');
  });

  it('a sync stopped at a changed certificate says so in Czech, with both fingerprints and where to trust the new one', async () => {
    const changed = { code: 'certificateChanged' as const, params: { pinned: 'AA:BB', seen: 'CC:DD', waiting: 2 } };
    i18n.global.locale.value = 'cs';
    const w = banner({ ...summary, error: changed, errorCode: 'certificate' });
    expect(w.text()).toContain('Certifikát služby se změnil: důvěřovali jste AA:BB, nyní služba předkládá CC:DD.');
    expect(w.text()).toContain('na obrazovce Připojení');
    expect(w.text()).not.toContain('has changed');
  });

  it('a sync stopped by the network says why in Czech: the cause worded here, never the core’s English detail', async () => {
    const failures = [
      [
        new RetriesExhausted(
          new UnavailableError('GetAccounts', 503, null),
          'budget',
          'The service is unavailable (HTTP 503 Service Unavailable). It kept failing for 30 s.',
        ),
        'Služba není dostupná: HTTP 503',
      ],
      [new TimeoutError('CategoryTree', 30_000), 'Služba není dostupná: žádná odpověď do 30 s'],
      [
        new NetworkError('AccountList2', 'The service refused the connection (is it running?).', 'ECONNREFUSED'),
        'Služba není dostupná: spojení bylo odmítnuto (ECONNREFUSED); běží služba?',
      ],
      [
        new ProxyError(
          'AccountList2',
          'The proxy at 127.0.0.1:3128 asks for credentials (HTTP 407): set them in the system proxy settings.',
          407,
        ),
        'přes proxy: proxy požaduje přihlašovací údaje (HTTP 407)',
      ],
    ] as const;
    i18n.global.locale.value = 'cs';
    for (const [failure, czech] of failures) {
      const { code, error } = classify(failure, 2);
      expect(error.params, failure.name).toMatchObject({ waiting: 2, detail: failure.message });
      const w = banner({ ...summary, error, errorCode: code });
      expect(w.text(), failure.name).toContain(czech);
      expect(w.text(), failure.name).not.toContain(failure.message);
      expect(w.text(), failure.name).not.toMatch(/\b(the|service|was|answer|within|proxy at)\b/i);
      w.unmount();
    }
  });

  it('the connection report words its error by its code', () => {
    const report: ConnectionReport = {
      ok: false,
      state: 'unreachable',
      baseUrl: 'https://books.example',
      namespace: null,
      operations: [],
      missing: [],
      warnings: [],
      error: { code: 'unreachable', params: { detail: 'connect ECONNREFUSED 127.0.0.1:1' } },
      certificate: null,
    };
    i18n.global.locale.value = 'cs';
    const w = mount(ConnectionReportAlert, { props: { report }, global: { plugins: [pinia, i18n] } });
    expect(w.text()).toContain('Službu se nepodařilo zastihnout: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('the connection report words its warnings by their codes', () => {
    const report: ConnectionReport = {
      ok: false,
      state: 'not-checked',
      baseUrl: 'http://books.example',
      namespace: 'http://tempuri.org/',
      operations: ['AccountListWithAmount'],
      missing: [],
      warnings: [
        { code: 'insecureAddress', params: {} },
        { code: 'olderOperation', params: { wanted: 'AccountListWithAmount2', used: 'AccountListWithAmount' } },
        { code: 'operationMissing', params: { operations: 'CarFuelList' } },
      ],
      error: null,
      certificate: null,
    };
    i18n.global.locale.value = 'cs';
    const w = mount(ConnectionReportAlert, { props: { report }, global: { plugins: [pinia, i18n] } });
    expect(w.findAll('[data-testid="report-warning"]').map((li) => li.text())).toEqual([
      'Tato adresa vede přes http:// na jiný počítač: vaše jméno, heslo a klíč by putovaly každým požadavkem nešifrovaně. Pokud to služba umí, použijte https://.',
      'Služba nemá AccountListWithAmount2; aplikace místo ní použije starší AccountListWithAmount.',
      'Služba nemá CarFuelList; co ji potřebuje, selže.',
    ]);
  });
});

const thrown = (call: () => unknown): AppError => caught(call, AppError);
const rejected = (call: () => Promise<unknown>): Promise<AppError> => rejection(call, AppError);

describe('the lower layers’ refusals, in the user’s language', () => {
  it('an unusable address, a fingerprint, a CSV, a local file, the service’s records and the keychain are worded by code in Czech, never the core’s English', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-errors-'));
    const notSqlite = join(dir, 'notes.sqlite');
    writeFileSync(notSqlite, 'shopping list\n');
    const newer = new Database(':memory:');
    newer.pragma('user_version = 99');
    const nowhere: SecretPersistence = { read: () => 'c2VhbGVk', write: () => undefined };
    const noKeychain = new EncryptedSecretStore(
      { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
      nowhere,
    );
    const cases: [AppError, string][] = [
      [thrown(() => normalizeBaseUrl('money.example.com')), 'Toto není webová adresa. Má vypadat jako https://penize.example.cz.'],
      [thrown(() => normalizeBaseUrl('ftp://money.example.com')), 'Adresa musí začínat http:// nebo https://.'],
      [
        thrown(() => normalizeBaseUrl('https://me:secret@money.example.com')),
        'Adresa nesmí obsahovat jméno ani heslo; zadejte je do jejich polí.',
      ],
      [thrown(() => pinnedFingerprint('AB:CD')), 'Zadejte otisk SHA-256'],
      [thrown(() => readCsv('a,b\n1,2\n"never closed,3\n')), 'Soubor nelze přečíst jako CSV: na řádku 3 není uzavřeno pole v uvozovkách.'],
      [thrown(() => readCsv('')), 'Soubor je prázdný.'],
      [thrown(() => inspectLocalFile(dir)), `${dir} je složka; vyberte samotný soubor s místními daty.`],
      [
        thrown(() => inspectLocalFile(notSqlite)),
        `${notSqlite} není místní kopie této aplikace (není to databáze SQLite); nic nebylo změněno.`,
      ],
      [thrown(() => migrate(newer)), 'Soubor s místními daty zapsala novější verze aplikace'],
      [
        thrown(() => accountFromApi({ Id: 7, Name: 'Cash', Amount: Number.NaN } as unknown as ApiAccount2)),
        'Služba poslala data, která nelze uložit: účet 7, pole Amount není číslo.',
      ],
      [
        await rejected(() => noKeychain.get('password')),
        'Systémová klíčenka není dostupná, uložené přihlašovací údaje proto nelze přečíst.',
      ],
      [
        await rejected(() => noKeychain.set('password', 'x')),
        'Systémová klíčenka není dostupná, přihlašovací údaje proto nelze bezpečně uložit.',
      ],
    ];
    newer.close();
    rmSync(dir, { recursive: true, force: true });
    i18n.global.locale.value = 'cs';
    const t = i18n.global.t as Translate;
    for (const [error, czech] of cases) {
      const text = codeText(error.toData(), t);
      expect(text, error.code).toContain(czech);
      expect(text, error.code).not.toContain(error.message);
      expect(text, error.code).not.toMatch(/\b(the|is|not|must|service|file|line|cannot)\b/i);
    }
    // A record the service sent that cannot be kept stops a sync: the banner names it in Czech too.
    const stopped = classify(cases.find(([e]) => e.code === 'serviceValueNotNumber')![0], 0);
    const w = banner({ ...summary, error: stopped.error, errorCode: stopped.code });
    expect(w.text()).toContain('účet 7, pole Amount není číslo');
    i18n.global.locale.value = 'en';
    await w.vm.$nextTick();
    expect(w.text()).toContain('in account 7, Amount is not a number');
  });
});
