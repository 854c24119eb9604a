/**
 * The password dialog: 'needed' when the password is kept nowhere (asked at each sync) or was forgotten,
 * 'refused' when the service did not accept it; null while closed. Its answer starts a sync
 * (stores/sync.ts, answerPassword).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export type PasswordReason = 'needed' | 'refused';

export const usePasswordPromptStore = defineStore('password-prompt', () => {
  const reason = ref<PasswordReason | null>(null);

  /** Opens the dialog (the banner's action after a refused or missing password, or a sync that needs one). */
  function ask(why: PasswordReason): void {
    reason.value = why;
  }

  function close(): void {
    reason.value = null;
  }

  return { reason, ask, close };
});
