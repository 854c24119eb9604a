/** Whole seconds left until a moment, ticking each second only while there is one to count down to. */
import { computed, onBeforeUnmount, ref, watch, type Ref } from 'vue';

export function useCountdown(until: Ref<number | null>): Ref<number | null> {
  const now = ref(Date.now());
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  watch(
    until,
    (at) => {
      now.value = Date.now();
      if (at === null) stop();
      else timer ??= setInterval(() => (now.value = Date.now()), 1000);
    },
    { immediate: true },
  );
  onBeforeUnmount(stop);
  return computed(() => (until.value === null ? null : Math.max(0, Math.ceil((until.value - now.value) / 1000))));
}
