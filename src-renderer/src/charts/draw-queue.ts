/**
 * Charts drawn one per task: a screen of four charts (or a report's new figures reaching all of them at
 * once) would otherwise build or redraw them all in one task of 100-350 ms, and the page would not answer
 * meanwhile. Each draw waits for the ones queued before it and runs in a task of its own.
 */
const queue: (() => void)[] = [];
let scheduled = false;

function next(): void {
  queue.shift()?.();
  if (queue.length > 0) setTimeout(next, 0);
  else scheduled = false;
}

/** Runs `draw` in a task of its own, after the draws queued before it. */
export function drawInTurn(draw: () => void): void {
  queue.push(draw);
  if (!scheduled) {
    scheduled = true;
    setTimeout(next, 0);
  }
}
