/** Short notices at the screen's edge; errors stay until dismissed, confirmations fade. */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
  /** A route to go to from the notice (e.g. the outbox). */
  link?: { label: string; to: string };
}

export const TOAST_MS = 6000;

export const useToastsStore = defineStore('toasts', () => {
  const toasts = ref<Toast[]>([]);
  let nextId = 1;

  function dismiss(id: number): void {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  }

  function push(toast: Omit<Toast, 'id'>): number {
    const id = nextId++;
    toasts.value = [...toasts.value.slice(-3), { ...toast, id }];
    if (toast.kind !== 'error') setTimeout(() => dismiss(id), TOAST_MS);
    return id;
  }

  return { toasts, push, dismiss };
});
