/**
 * New categories (AddCategory) and renames (EditCategory). Both answer with the whole tree, so the
 * tree is stored from every answer, and category writes go one at a time to keep it current.
 */
import { AppError, RECORD_TABLES } from '../../../src-shared/app-api';
import type { ApiCategoryTree } from '../../../src-shared/catalog';
import { CATEGORY, type CategoryWrite } from '../../../src-shared/records/category';
import { pick } from '../../../src-shared/records/fields';
import type { OutboxEntry } from '../outbox/entries';
import { changedFields, layEdit, type ViewState } from '../outbox/view-state';
import { categoriesFromApi, type CategoryRow } from '../store/rows';
import { baseFor, findEditEffect, prepareEdit } from './edits';
import { EffectUndecidable, type ApplyContext, type EditSpec, type Effect, type Probe, type PushContext, type WriteKind } from './kind';
import { assertNothingUnexplained, idsBefore, revivedProbe, sameFields } from './listing';
import { idParam, paramsOf } from './params';

/** Sibling categories may not share a name, compared without regard to case. */
const sameName = (a: string, b: string) => a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();

function checkSiblingName(state: ViewState, parentId: number, name: string, self: number | null): void {
  for (const c of state.categories.values()) {
    if (c.parentId === parentId && c.id !== self && sameName(c.name, name)) {
      throw new AppError('categoryNameTaken', { name: c.name }, 'name');
    }
  }
}

/** Every category write goes in this one line: each answers with the whole tree. */
const TREE_KEY = 'categories';

/** Whether a category holds what a new category sent, in the fields a category is told by (`caseless`: its name in any case). */
export const categoryMatches = (c: CategoryRow, i: CategoryWrite, caseless = false): boolean => sameFields(CATEGORY, c, i, { caseless });

/** The category a create made: new since the probe, not one of ours already, with the fields it is told by (its name and parent). */
function createdCategory(rows: CategoryRow[], entry: OutboxEntry<'addCategory'>, probe: Probe, ctx: PushContext): number | null {
  const before = idsBefore(probe);
  const own = ctx.outbox.ownIds('category');
  const candidates = rows.filter((c) => !before.has(c.id) && !own.has(c.id));
  // Its name as sent, else as a service that changed its case has it.
  const exact = candidates.find((c) => categoryMatches(c, entry.input));
  const loose = candidates.find((c) => categoryMatches(c, entry.input, true));
  return (exact ?? loose)?.id ?? null;
}

function storeTree(effect: Effect, ctx: ApplyContext): void {
  if (effect.kind === 'categories') ctx.store.categories.replace(categoriesFromApi(effect.tree));
}

const treeEffect = (tree: ApiCategoryTree, createdId: number | null): Effect => ({ kind: 'categories', tree, createdId });

export const addCategory: WriteKind<'addCategory'> = {
  label: 'new category',
  touches: RECORD_TABLES.categories,
  creates: ['category'],
  references: [['parentId', 'category']],
  marks: CATEGORY,
  edit: null,
  keys: () => [TREE_KEY],
  check(raw, ctx) {
    const parentId = ctx.resolve(raw.parentId);
    if (parentId !== 0 && !ctx.state.categories.has(parentId)) {
      throw new AppError('parentCategoryMissing', { id: raw.parentId }, 'parentId');
    }
    checkSiblingName(ctx.state, parentId, raw.name, null);
    return { input: { ...raw, parentId }, base: null };
  },
  lay(state, entry) {
    const id = entry.createdIds[0]!;
    const siblings = [...state.categories.values()].filter((c) => c.parentId === entry.input.parentId);
    const position = siblings.reduce((max, c) => Math.max(max, c.position + 1), 0);
    state.categories.set(id, { id, ...pick(entry.input, CATEGORY.sent), position, pending: true, local: true });
  },
  async prepare(entry, ctx) {
    const ids = (await ctx.snapshot.categories()).rows.map((c) => c.id);
    return { action: 'send', call: { operation: 'AddCategory', params: paramsOf(CATEGORY, CATEGORY.sent, entry.input) }, probe: { ids } };
  },
  async send(entry, call, probe, ctx) {
    const tree = await ctx.client.call('AddCategory', call.params as never);
    const createdId = createdCategory(categoriesFromApi(tree).all, entry, probe, ctx);
    if (createdId === null) {
      // Accepted, but the new category cannot be told apart in the answer: never send it again blindly.
      throw new EffectUndecidable(
        'The service accepted the new category, but it does not appear where expected in its answer; check the categories, then discard this write.',
        treeEffect(tree, null),
      );
    }
    return treeEffect(tree, createdId);
  },
  probeFromCopy: (_entry, store) => revivedProbe(store.categories.list().map((c) => c.id)),
  async findEffect(entry, ctx) {
    const { tree, rows } = await ctx.snapshot.categories();
    const createdId = createdCategory(rows, entry, entry.probe as Probe, ctx);
    if (createdId !== null) return treeEffect(tree, createdId);
    const before = idsBefore(entry.probe);
    const own = ctx.outbox.ownIds('category');
    assertNothingUnexplained(entry.probe, rows.filter((c) => !before.has(c.id) && !own.has(c.id)).length);
    return null;
  },
  apply(entry, effect, ctx) {
    storeTree(effect, ctx);
    if (effect.kind === 'categories' && effect.createdId !== null) {
      ctx.outbox.markOwn('category', effect.createdId);
      ctx.outbox.replaceTempId('category', entry.createdIds[0]!, effect.createdId);
    }
  },
};

const categoryRename: EditSpec<'renameCategory'> = {
  record: 'category',
  fields: CATEGORY.edited,
  async theirs(entry, ctx) {
    const c = (await ctx.snapshot.categories()).rows.find((r) => r.id === entry.input.id);
    return c ? pick(c, CATEGORY.edited) : null;
  },
  call: (id, v) => ({ operation: 'EditCategory', params: { ...idParam(CATEGORY, id), ...paramsOf(CATEGORY, CATEGORY.edited, v) } }),
  stored(id, store) {
    const c = store.categories.list().find((r) => r.id === id);
    return c ? pick(c, CATEGORY.edited) : null;
  },
};

export const renameCategory: WriteKind<'renameCategory'> = {
  label: 'category rename',
  touches: RECORD_TABLES.categories,
  creates: [],
  references: [['id', 'category']],
  marks: CATEGORY,
  edit: categoryRename,
  keys: () => [TREE_KEY],
  check(raw, ctx) {
    const id = ctx.resolve(raw.id);
    const category = ctx.state.categories.get(id);
    if (!category) throw new AppError('categoryMissing', { id: raw.id }, 'id');
    checkSiblingName(ctx.state, category.parentId, raw.name, id);
    return { input: { ...raw, id }, base: baseFor(categoryRename.fields, id, category, ctx.previous), targetId: id };
  },
  lay: (state, entry) => layEdit(state.categories.get(entry.input.id), changedFields(entry, categoryRename.fields)),
  prepare: (entry, ctx) => prepareEdit(categoryRename, entry, ctx),
  send: async (_entry, call, _probe, ctx) => treeEffect(await ctx.client.call('EditCategory', call.params as never), null),
  probeFromCopy: () => null,
  findEffect: (entry, ctx) => findEditEffect(categoryRename, entry, ctx),
  apply: (_entry, effect, ctx) => storeTree(effect, ctx),
};
