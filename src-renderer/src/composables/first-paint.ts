/**
 * Whether the app's first frame has been painted. Mounting the whole frame (header, navigation, dialogs and the
 * first screen) in one task held the page for 77-129 ms on opening; what the first screen does not need (the
 * navigation's items, closed dialogs, keeping the current item in view) waits for this and mounts in a task of
 * its own after that paint.
 */
import { readonly, ref, type Ref } from 'vue';

/** A hidden page paints no frames: past this, whatever waits for the first paint goes ahead anyway. */
const AT_THE_LATEST_MS = 250;

const painted = ref(false);
let asked = false;

/** Flips `painted` in the task after the next frame's paint (an animation frame comes just before a paint). */
function watchFirstPaint(): void {
  const done = () => {
    painted.value = true;
  };
  requestAnimationFrame(() => setTimeout(done, 0));
  setTimeout(done, AT_THE_LATEST_MS);
}

/** True once the first frame after mounting has been painted. */
export function useFirstPaint(): Readonly<Ref<boolean>> {
  if (!asked) {
    asked = true;
    watchFirstPaint();
  }
  return readonly(painted);
}
