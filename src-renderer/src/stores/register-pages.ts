/**
 * Reading the register a page at a time by keyset into the window on screen: the newest rows, the
 * oldest, the rows of a day (each a new window), and the rows beyond either end (extending it). One
 * request at a time (request-queue.ts); `input` says what is read (the register and its text filter).
 */
import type { InputOf, RegisterCursor, RegisterPage, RegisterRow } from '../../../src-shared/app-api';
import { api } from '../api';
import { appendOlder, createRegisterWindow, prependNewer, replaceWith } from './register-window';
import { createRequestQueue } from './request-queue';

type Extra = Partial<InputOf<'listRegister'>>;

const cursorOf = (r: RegisterRow): RegisterCursor => ({ paymentDate: r.paymentDate, key: r.key, id: r.id, outboxId: r.outboxId });

export function createRegisterPages(input: (extra: Extra) => InputOf<'listRegister'>) {
  const shown = createRegisterWindow();
  const requests = createRequestQueue();

  /**
   * Reads the page `wanted` asks for when its turn comes (none: nothing to read) and, while the window it
   * is for is still shown, lets `join` put it in.
   */
  function read(wanted: () => Extra | null, replaces: boolean, join: (page: RegisterPage) => void): Promise<void> {
    return requests.run(async (mine) => {
      const extra = wanted();
      if (!extra) return;
      const page = await api().listRegister(input(extra));
      if (!requests.current(mine)) return;
      join(page);
      requests.error.value = null;
    }, replaces);
  }

  /** Replaces the window with a page read with counts (where it sits in the register). */
  const replace = (extra: Extra) =>
    read(
      () => ({ ...extra, counts: true }),
      true,
      (page) => replaceWith(shown, page, extra.direction ?? 'older'),
    );
  const newest = () => replace({});
  const oldest = () => replace({ direction: 'newer' });

  /** The rows of a day and older; before the oldest row, the oldest rows (there is nothing older to show). */
  async function jump(date: string): Promise<void> {
    await replace({ at: date });
    if (shown.rows.value.length === 0 && shown.total.value > 0) await oldest();
  }

  /** Reads the rows after the window's last one (as the requests before left it) and appends them. */
  const older = () =>
    read(
      () => {
        const last = shown.rows.value.at(-1);
        return last && shown.moreOlder.value ? { after: cursorOf(last) } : null;
      },
      false,
      (page) => appendOlder(shown, page),
    );

  /** Reads the rows before the window's first one (as the requests before left it) and prepends them. */
  const newer = () =>
    read(
      () => {
        const first = shown.rows.value[0];
        return first && shown.start.value > 0 ? { direction: 'newer', after: cursorOf(first) } : null;
      },
      false,
      (page) => prependNewer(shown, page),
    );

  return { shown, loading: requests.loading, error: requests.error, newest, oldest, jump, older, newer };
}
