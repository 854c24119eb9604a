/**
 * Work done one piece per task, in the order asked. A screen of four charts (or a report's new figures
 * reaching all of them at once) would otherwise build or redraw them all in one task of 100-350 ms, and a
 * screen whose stores already hold its data (a second visit of a car) would mount all of it in the task that
 * navigates there (69-87 ms at 1,000,000 transactions); the page answers nothing meanwhile.
 */
import { onMounted, ref } from 'vue';

const queue: (() => void)[] = [];
let scheduled = false;

function next(): void {
  queue.shift()?.();
  if (queue.length > 0) setTimeout(next, 0);
  else scheduled = false;
}

/** Runs `work` in a task of its own, after the work queued before it. */
export function inTurn(work: () => void): void {
  queue.push(work);
  if (!scheduled) {
    scheduled = true;
    setTimeout(next, 0);
  }
}

/**
 * A screen's parts mounted one per task: part 0 with the screen, each next one in a task of its own after the
 * part before it (in turn with the charts' draws, so Vue's render of a part happens in that task). Returns
 * whether a part may be mounted yet.
 */
export function usePartsInTurn(parts: number): (part: number) => boolean {
  const mounted = ref(1);
  onMounted(() => {
    for (let part = 1; part < parts; part++) inTurn(() => (mounted.value = part + 1));
  });
  return (part) => part < mounted.value;
}
