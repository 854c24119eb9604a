/**
 * The preload bridge: exposes exactly the app API to the sandboxed renderer, one function per method of
 * the table plus an event subscription. Nothing else of Electron or Node reaches the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { APP_METHOD_NAMES, IPC_EVENT_CHANNEL, PRELOAD_GLOBAL, ipcChannel } from '../src-shared/app-api';

const bridge: Record<string, unknown> = {};
for (const method of APP_METHOD_NAMES) {
  bridge[method] = (input?: unknown) => ipcRenderer.invoke(ipcChannel(method), input);
}
bridge.onEvent = (listener: (event: unknown) => void) => {
  if (typeof listener !== 'function') throw new TypeError('onEvent takes a function.');
  const wrapped = (_: IpcRendererEvent, event: unknown) => listener(event);
  ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
  };
};

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, bridge);
