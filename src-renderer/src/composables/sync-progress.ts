/** What the running sync is doing, in words and as a share of its steps: for the header and the first sync's screens. */
import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import { useSyncStore } from '../stores/sync';
import { useCountdown } from './countdown';

export function useSyncProgress(): { text: ComputedRef<string>; percent: ComputedRef<number | null> } {
  const { t } = useI18n();
  const sync = useSyncStore();
  const secondsLeft = useCountdown(computed(() => sync.waiting?.until ?? null));
  const percent = computed(() => {
    const p = sync.progress;
    return p && p.total > 0 ? Math.round((p.done / p.total) * 100) : null;
  });
  const text = computed(() => {
    const p = sync.progress;
    if (!sync.syncing) return '';
    if (sync.cancelling) return t('sync.cancelling');
    const w = sync.waiting;
    if (w) return t(`sync.waiting.${w.cause}`, { seconds: secondsLeft.value ?? 0, status: w.httpStatus ?? '' });
    if (!p || p.total === 0) return t('sync.working');
    return t(`sync.phase.${p.phase}`, { done: p.done, total: p.total });
  });
  return { text, percent };
}
