/** A clock that ticks every half minute, for "synced 5 minutes ago". */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

export function useNow(intervalMs = 30_000): Ref<number> {
  const now = ref(Date.now());
  let timer: ReturnType<typeof setInterval> | undefined;
  onMounted(() => (timer = setInterval(() => (now.value = Date.now()), intervalMs)));
  onBeforeUnmount(() => clearInterval(timer));
  return now;
}
