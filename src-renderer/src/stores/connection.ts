/** Setting up the service: testing an address, connecting to it, or working offline for now. Each answer is the new status. */
import { defineStore } from 'pinia';
import type { AppStatus, ConnectionReport, InputOf } from '../../../src-shared/app-api';
import { api } from '../api';
import { write } from './loader';
import { useStatusStore } from './status';

export const useConnectionStore = defineStore('connection', () => {
  const status = useStatusStore();

  const testConnection = (input: InputOf<'testConnection'>): Promise<ConnectionReport> => write(() => api().testConnection(input));

  async function connect(input: InputOf<'connect'>): Promise<AppStatus> {
    const next = await write(() => api().connect(input));
    status.status = next;
    return next;
  }

  async function workOffline(): Promise<AppStatus> {
    const next = await write(() => api().workOffline());
    status.status = next;
    return next;
  }

  return { testConnection, connect, workOffline };
});
