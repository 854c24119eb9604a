/** The preload bridge: exposes the app API to the sandboxed renderer (filled in by the shell issue). */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('bookkeepingBridge', { version: 1 });
