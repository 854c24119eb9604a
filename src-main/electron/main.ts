/**
 * The Electron main process: the edge that turns the core into a desktop app. It owns one window, the
 * local copy in the user-data folder, the secrets through the OS keychain, and the IPC handlers; all
 * bookkeeping logic lives in the plain core.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, Menu, app, ipcMain, safeStorage, screen, session, type Session } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../src-shared/app-api';
import { CONTENT_SECURITY_POLICY } from '../app-bridge/csp';
import { DATA_FILE_NAME, logFileIn } from '../app-bridge/data-location';
import type { AppCore } from '../core/app/app-core';
import { openRecoverableCore } from '../core/app/recoverable-core';
import { openAppLog } from '../core/log/app-log';
import { EncryptedSecretStore, sealedSecrets, type SecretStoreSource } from '../core/secrets';
import { ownerOnlyDir } from '../core/store/owner-only';
import { registerIpcHandlers } from './ipc';
import { menuTemplate } from './menu';
import { osCipher } from './secret-cipher';
import { serviceTransport } from './service-network';
import { isAllowedRequest, isAppUrl, windowOptions } from './window-options';
import { isVisibleOn, loadWindowBounds, saveWindowBounds } from './window-state';

const isMac = process.platform === 'darwin';
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appUrl = devServerUrl ?? pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
const appLog = openAppLog(logFileIn(app.getPath('userData')));
const log = (message: string, error?: unknown) => {
  appLog.error(message, error);
  if (!app.isPackaged) console.error(`[bookkeeping] ${message}`, error ?? '');
};

let core: AppCore | null = null;
let win: BrowserWindow | null = null;

function secretSource(): SecretStoreSource {
  const cipher = osCipher(safeStorage, process.platform);
  if (!cipher) {
    log('No operating-system keychain: the client key is sealed under the password, which is asked after a restart.');
    return (persistence) => sealedSecrets(persistence);
  }
  return (persistence) => new EncryptedSecretStore(cipher, persistence);
}

function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url, appUrl) }));
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

function createWindow(): void {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  let bounds = loadWindowBounds(stateFile);
  if (
    bounds &&
    !isVisibleOn(
      bounds,
      screen.getAllDisplays().map((d) => d.workArea),
    )
  ) {
    bounds = null;
  }
  win = new BrowserWindow(windowOptions(join(import.meta.dirname, '../preload/index.cjs'), bounds));
  if (bounds?.maximized) win.maximize();
  win.once('ready-to-show', () => win?.show());
  win.on('close', () => {
    if (!win) return;
    saveWindowBounds(stateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  });
  win.on('closed', () => (win = null));
  void win.loadURL(appUrl);
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  ownerOnlyDir(userData);
  hardenSession(session.defaultSession);
  core = openRecoverableCore({
    dataFile: join(userData, DATA_FILE_NAME),
    secrets: secretSource(),
    // Outside a package, better-sqlite3 for Electron's ABI sits beside the Node build (see scripts/start.mjs).
    store: app.isPackaged ? {} : { nativeBinding: process.env.BOOKKEEPING_SQLITE_BINDING },
    // The service is reached through Chromium's network stack (system proxy, OS certificates) in its own session.
    transport: serviceTransport(session.fromPartition('service'), log),
    log,
    appLog,
    about: { version: app.getVersion(), runtime: `Electron ${process.versions.electron}` },
  });
  registerIpcHandlers(ipcMain, core, (url) => isAppUrl(url, appUrl), log);
  core.onEvent((event) => win?.webContents.send(IPC_EVENT_CHANNEL, event));
  const sync = () => {
    // Progress and the result reach the window as events; a sync already running is simply not doubled.
    core?.sync().catch(() => {});
  };
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ isMac, isDev: devServerUrl !== undefined, onSync: sync })));
  createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (e, url) => {
      if (!isAppUrl(url, appUrl)) e.preventDefault();
    });
    contents.on('will-redirect', (e, url) => {
      if (!isAppUrl(url, appUrl)) e.preventDefault();
    });
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('will-quit', () => {
    void core?.close();
  });
  app.whenReady().then(start, (e: unknown) => {
    log('start failed', e);
    app.quit();
  });
}
