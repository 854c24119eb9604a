/**
 * The window's settings, kept apart from the Electron calls so that a test can check them: an isolated,
 * sandboxed renderer without Node, and only the app's own pages.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { WindowBounds } from './window-state';

export function windowOptions(preloadPath: string, bounds: WindowBounds | null): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1200,
    height: bounds?.height ?? 800,
    ...(bounds ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 720,
    minHeight: 500,
    show: false,
    title: 'Bookkeeping',
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      // Date and time fields follow the `lang` the app sets on them (Czech or English), not the system's.
      enableBlinkFeatures: 'LangAttributeAwareFormControlUI',
    },
  };
}

/**
 * Whether the window may load a URL: the app's own page (its file, or the dev server in `npm run dev`),
 * and nothing else. Navigation elsewhere and new windows are refused.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const parsed = parseBoth(url, appUrl);
  if (!parsed) return false;
  const [target, app] = parsed;
  if (app.protocol === 'file:') return target.protocol === 'file:' && target.pathname === app.pathname;
  return target.origin === app.origin;
}

/**
 * Whether the app's session may fetch a URL: the app's own files (or dev server), inline images and
 * the developer tools; no remote content of any kind.
 */
export function isAllowedRequest(url: string, appUrl: string): boolean {
  const parsed = parseBoth(url, appUrl);
  if (!parsed) return false;
  const [target, app] = parsed;
  if (target.protocol === 'data:' || target.protocol === 'devtools:') return true;
  if (app.protocol === 'file:') {
    const root = app.pathname.slice(0, app.pathname.lastIndexOf('/') + 1);
    return (
      target.protocol === 'file:' &&
      decodeURIComponent(target.pathname).startsWith(decodeURIComponent(root)) &&
      !target.pathname.includes('..')
    );
  }
  return target.origin === app.origin || (target.protocol === 'ws:' && target.host === app.host);
}

/** The URL asked for and the app's own, or null when either does not parse (which refuses it). */
function parseBoth(url: string, appUrl: string): [target: URL, app: URL] | null {
  try {
    return [new URL(url), new URL(appUrl)];
  } catch {
    return null;
  }
}
