/** The app's writes (checked, queued in the outbox with the local copy's change) and what the user does with queued ones. */
import { AppError, OUTBOX_KINDS, WRITE_INPUT_SCHEMAS, type OutboxKind, type WriteInputOf } from '../../../src-shared/app-api';
import { parse } from '../../../src-shared/validate';
import { resolveChoices, touchedBy } from '../write-kinds';
import { fieldsShown } from '../write-kinds/shown';
import type { CoreServices, Handlers } from './core-parts';
import { outboxView } from './read-views';

type OutboxMethod =
  'checkTransfer' | 'listOutbox' | 'getOutboxEntry' | 'retryOutbox' | 'discardOutbox' | 'updateOutbox' | 'resolveConflict';

export function outboxHandlers(core: CoreServices): Handlers<OutboxKind | OutboxMethod> {
  const { store, outbox } = core;

  /** A write, queued with the marks it carries (LocalWrites.queue). */
  async function write<K extends OutboxKind>(kind: K, input: WriteInputOf<K>) {
    const result = core.writes.queue(kind, input);
    await core.changed(touchedBy(kind));
    return result;
  }

  /** A method per kind of write (the app API names each write method by its kind; each takes that kind's input). */
  const writeMethods = Object.fromEntries(
    OUTBOX_KINDS.map((kind) => [kind, (i: WriteInputOf<OutboxKind>) => write(kind, i)]),
  ) as unknown as Handlers<OutboxKind>;

  const entries = () => outboxView(outbox.all(), store);

  function entry(id: number) {
    const e = outbox.get(id);
    if (!e) throw new AppError('entryMissing', { id }, 'id');
    return e;
  }

  return {
    ...writeMethods,
    checkTransfer: async (i) => core.writes.checkTransfer(i),
    listOutbox: async () => entries(),
    async getOutboxEntry({ id }) {
      const e = entry(id);
      return { entry: entries().find((v) => v.id === id)!, fields: fieldsShown(e, store) };
    },
    async retryOutbox({ id }) {
      const e = entry(id);
      // An undecidable write is one whose arrival the sync could not tell: the user's retry is the word to
      // send it again (an unknown one is still to be checked by the next sync).
      if (e.status === 'refused' || e.status === 'conflict' || e.status === 'undecidable') {
        store.transaction(() => outbox.setStatus(id, 'pending'));
        await core.changed(['outbox']);
      }
      return entries();
    },
    async discardOutbox({ id }) {
      const e = entry(id);
      store.transaction(() => outbox.remove(id));
      await core.changed(touchedBy(e.kind));
      return entries();
    },
    async updateOutbox({ id, input: raw }) {
      const e = entry(id);
      core.writes.replace(id, parse(WRITE_INPUT_SCHEMAS[e.kind], raw, 'input.input'));
      await core.changed(touchedBy(e.kind));
      return entries();
    },
    async resolveConflict({ id, choices }) {
      const e = entry(id);
      if (e.status !== 'conflict') throw new AppError('noConflict', { id }, 'id');
      const fields = new Set(e.conflicts.map((c) => c.field));
      for (const key of Object.keys(choices)) {
        if (!fields.has(key)) throw new AppError('notInConflict', { field: key, fields: [...fields].join(', ') }, 'choices');
      }
      const open = [...fields].filter((f) => !choices[f]);
      if (open.length) throw new AppError('chooseSides', { fields: open.join(', ') }, 'choices');
      const { input, base } = resolveChoices(e, choices);
      store.transaction(() => outbox.replaceInput(id, input, base));
      await core.changed(touchedBy(e.kind));
      return entries();
    },
  };
}
