/**
 * The application menu: Sync with its shortcut, and the usual Edit, View and Window entries (with the
 * app menu on macOS). Built as data so that a test can check it without Electron.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { accelerator, chordsOf } from '../../src-shared/shortcuts';

/** Sync Now's key, from the shortcut table the renderer's handler and its list of shortcuts read too. */
export const SYNC_ACCELERATOR = accelerator(chordsOf('sync')[0]!);

export function menuTemplate(opts: { isMac: boolean; isDev: boolean; onSync: () => void }): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (opts.isDev) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });

  return [
    ...(opts.isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: '&File',
      submenu: [
        { id: 'sync', label: 'Sync Now', accelerator: SYNC_ACCELERATOR, click: () => opts.onSync() },
        { type: 'separator' },
        opts.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: '&View', submenu: view },
    { role: 'windowMenu' },
  ];
}
