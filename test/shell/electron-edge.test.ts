/** The Electron edge's settings, checked without Electron: web preferences, CSP, navigation, menu, window state. */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../src-main/app-bridge/csp';
import { SYNC_ACCELERATOR, menuTemplate } from '../../src-main/electron/menu';
import { isAppUrl, windowOptions } from '../../src-main/electron/window-options';
import { isVisibleOn, loadWindowBounds, parseWindowBounds, saveWindowBounds } from '../../src-main/electron/window-state';

describe('window', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    const prefs = windowOptions('/app/out/preload/index.cjs', null).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      enableBlinkFeatures: 'LangAttributeAwareFormControlUI',
    });
  });

  it('reopens where it was left', () => {
    const o = windowOptions('p', { x: 10, y: 20, width: 900, height: 700, maximized: false });
    expect(o).toMatchObject({ x: 10, y: 20, width: 900, height: 700 });
  });

  it('has a strict CSP: own scripts only, no remote content, no eval, no framing', () => {
    const rules = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((r) => [r.split(' ')[0], r.split(' ').slice(1).join(' ')]));
    expect(rules['default-src']).toBe("'self'");
    expect(rules['script-src']).toBe("'self'");
    expect(rules['connect-src']).toBe("'self'");
    expect(rules['object-src']).toBe("'none'");
    expect(rules['frame-ancestors']).toBe("'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(rules['script-src']).not.toContain('unsafe-inline');
  });

  it('the page carries the same CSP', async () => {
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(join(import.meta.dirname, '../../src-renderer/index.html'), 'utf8');
    expect(html).toContain(`content="${META_CONTENT_SECURITY_POLICY}"`);
  });

  it('allows only its own page to load, refusing navigation elsewhere', () => {
    const file = 'file:///opt/app/out/renderer/index.html';
    expect(isAppUrl('file:///opt/app/out/renderer/index.html#/accounts', file)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', file)).toBe(false);
    expect(isAppUrl('https://evil.example/', file)).toBe(false);
    const dev = 'http://localhost:5173/';
    expect(isAppUrl('http://localhost:5173/#/outbox', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('not a url', dev)).toBe(false);
  });
});

describe('window state', () => {
  it('round-trips through its file and ignores a damaged one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'winstate-'));
    const file = join(dir, 'window-state.json');
    expect(loadWindowBounds(file)).toBeNull();
    saveWindowBounds(file, { x: 1, y: 2, width: 800, height: 600, maximized: true });
    expect(loadWindowBounds(file)).toEqual({ x: 1, y: 2, width: 800, height: 600, maximized: true });
    // Its owner's alone, as every file of the app (POSIX modes).
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '{"x": "1e999", "y": 0');
    expect(loadWindowBounds(file)).toBeNull();
  });
  it('refuses absurd sizes', () => {
    expect(parseWindowBounds({ x: 0, y: 0, width: 10, height: 600 })).toBeNull();
    expect(parseWindowBounds({ x: 0.5, y: 0, width: 800, height: 600 })).toBeNull();
    expect(parseWindowBounds(null)).toBeNull();
  });
  it('knows when a display was unplugged', () => {
    const display = { x: 0, y: 0, width: 1920, height: 1080 };
    expect(isVisibleOn({ x: 100, y: 100, width: 800, height: 600, maximized: false }, [display])).toBe(true);
    expect(isVisibleOn({ x: 2500, y: 100, width: 800, height: 600, maximized: false }, [display])).toBe(false);
  });
});

describe('menu', () => {
  it('has Sync with a shortcut and the usual Edit, View and Window menus', () => {
    const onSync = vi.fn();
    const menu = menuTemplate({ isMac: false, isDev: false, onSync });
    const file = menu[0]!.submenu as { id?: string; accelerator?: string; click?: () => void }[];
    const sync = file.find((i) => i.id === 'sync')!;
    expect(sync.accelerator).toBe(SYNC_ACCELERATOR);
    sync.click!();
    expect(onSync).toHaveBeenCalledOnce();
    expect(menu.map((m) => m.role ?? m.label)).toEqual(['&File', 'editMenu', '&View', 'windowMenu']);
    expect(JSON.stringify(menu)).not.toContain('toggleDevTools');
  });
  it('adds the app menu on macOS and developer tools in development', () => {
    const menu = menuTemplate({ isMac: true, isDev: true, onSync: () => {} });
    expect(menu[0]!.role).toBe('appMenu');
    expect(JSON.stringify(menu)).toContain('toggleDevTools');
  });
});

describe('session', () => {
  it("fetches nothing but the app's own files, inline images and the dev tools", async () => {
    const { isAllowedRequest } = await import('../../src-main/electron/window-options');
    const page = 'file:///opt/app/out/renderer/index.html';
    expect(isAllowedRequest('file:///opt/app/out/renderer/assets/index-1.js', page)).toBe(true);
    expect(isAllowedRequest('data:image/png;base64,AAAA', page)).toBe(true);
    expect(isAllowedRequest('file:///opt/app/out/main/index.js', page)).toBe(false);
    expect(isAllowedRequest('file:///opt/app/out/renderer/../../package.json', page)).toBe(false);
    expect(isAllowedRequest('https://fonts.example/font.woff2', page)).toBe(false);
    expect(isAllowedRequest('http://127.0.0.1:8080/API/APIservice.asmx', page)).toBe(false);
    const dev = 'http://localhost:5173/';
    expect(isAllowedRequest('http://localhost:5173/src/main.ts', dev)).toBe(true);
    expect(isAllowedRequest('ws://localhost:5173/', dev)).toBe(true);
    expect(isAllowedRequest('http://localhost:6000/', dev)).toBe(false);
  });
});

describe('secrets', () => {
  const cipher = (available: boolean, backend?: string) => ({
    isEncryptionAvailable: () => available,
    encryptString: (s: string) => Buffer.from(s),
    decryptString: (b: Buffer) => b.toString(),
    getSelectedStorageBackend: backend ? () => backend : undefined,
  });
  it('uses the OS keychain where it is real, and nothing where it is plain text in disguise', async () => {
    const { osCipher } = await import('../../src-main/electron/secret-cipher');
    expect(osCipher(cipher(true, 'gnome_libsecret'), 'linux')).not.toBeNull();
    expect(osCipher(cipher(true, 'basic_text'), 'linux')).toBeNull();
    expect(osCipher(cipher(false), 'win32')).toBeNull();
    expect(osCipher(cipher(true), 'darwin')).not.toBeNull();
  });
});
