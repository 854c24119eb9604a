/**
 * The dialogs of a list of records kept on this computer (a car's other costs, its reminders): adding, editing
 * or removing one, and what each ends with (a toast on success, the error's line on failure), written once.
 */
import { shallowRef, type ShallowRef } from 'vue';
import type { AppError } from '../../../src-shared/app-api';
import { useToastsStore } from '../stores/toasts';
import { useErrorText } from './errors';

export interface RecordDialogs<T> {
  adding: ShallowRef<boolean>;
  editing: ShallowRef<T | null>;
  removing: ShallowRef<T | null>;
  /** The add or edit dialog closed without saving. */
  close: () => void;
  /** The add or edit form saved: the dialog closes and says so. */
  saved: () => void;
  /** The removal confirmed: the record asked for is removed, and the toast says whether it was. */
  remove: () => Promise<void>;
  /** Runs an action of the list; its failure is told in a toast, as every other's. */
  attempt: (action: () => Promise<void>) => Promise<void>;
}

export function useRecordDialogs<T>(
  texts: { saved: () => string; removed: () => string },
  removeRecord: (record: T) => Promise<unknown>,
): RecordDialogs<T> {
  const toasts = useToastsStore();
  const errorText = useErrorText();
  const adding = shallowRef(false);
  const editing = shallowRef<T | null>(null);
  const removing = shallowRef<T | null>(null);

  async function attempt(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (e) {
      toasts.push({ kind: 'error', text: errorText.line(e as AppError) });
    }
  }
  function close(): void {
    adding.value = false;
    editing.value = null;
  }
  return {
    adding,
    editing,
    removing,
    close,
    saved: () => {
      close();
      toasts.push({ kind: 'success', text: texts.saved() });
    },
    remove: async () => {
      const record = removing.value;
      removing.value = null;
      if (record === null) return;
      await attempt(async () => {
        await removeRecord(record);
        toasts.push({ kind: 'success', text: texts.removed() });
      });
    },
    attempt,
  };
}
