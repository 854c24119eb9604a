/**
 * The IPC edge: one handler per method of the app API table, each answering a CallOutcome. Calls are
 * accepted only from the app's own page; events go to the window.
 */
import { APP_METHOD_NAMES, AppError, ipcChannel, type AppApi, type CallOutcome } from '../../src-shared/app-api';
import { dispatch, type ErrorLogger } from '../app-bridge/dispatch';

/** The part of Electron's ipcMain this edge uses (a stand-in serves in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame: { url: string } | null }, input: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  core: AppApi,
  isTrustedSender: (url: string) => boolean,
  log?: ErrorLogger,
): () => void {
  for (const method of APP_METHOD_NAMES) {
    ipcMain.handle(ipcChannel(method), async (event, input): Promise<CallOutcome<unknown>> => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrustedSender(url)) {
        return { ok: false, error: new AppError('refused', { why: 'the call does not come from the app' }).toData() };
      }
      return dispatch(core, method, input, log);
    });
  }
  return () => {
    for (const method of APP_METHOD_NAMES) ipcMain.removeHandler(ipcChannel(method));
  };
}
