/** CategoryTree, AddCategory, EditCategory. */
import type { ApiCategory, ApiCategoryTree, ParamsOf } from '../../src-shared/catalog';
import { formatWall, instantToWall, quote } from '../../src-shared/wire';
import { RuleError } from '../errors';
import { awaited, type CategoryRow, type Flow } from '../store';
import type { CallContext } from './context';
import { apiCategory } from './records';
import * as rule from './rules';

const FAVORITES_MAX = 10;
const FAVORITES_DAYS = 90;

/**
 * The caller's forest (siblings by Id; ChildCategories nil for a leaf) and up to 10 favourites: the
 * categories booked most often with a PaymentDate in the last 90 days up to now, ties by Id.
 */
export function* categoryTree(ctx: CallContext): Flow<ApiCategoryTree> {
  const { store, user, timeZone } = ctx;
  const children = new Map<number, CategoryRow[]>();
  for (const row of yield* awaited(store.categories.listFor(user.id))) {
    const key = row.parent_id ?? 0;
    const siblings = children.get(key);
    if (siblings) siblings.push(row);
    else children.set(key, [row]);
  }
  const build = (parentId: number): ApiCategory[] =>
    (children.get(parentId) ?? []).map((c) => apiCategory(c, children.has(c.id) ? build(c.id) : null));
  const now = ctx.now();
  const from = formatWall(instantToWall(now - FAVORITES_DAYS * 86_400_000, timeZone));
  const to = formatWall(instantToWall(now, timeZone));
  const favorites = yield* awaited(store.categories.favorites(user.id, from, to, FAVORITES_MAX));
  return {
    FavoritCategories: favorites.map((c) => apiCategory(c, null)),
    AllCategories: build(0),
  };
}

function* uniqueAmongSiblings(ctx: CallContext, parentId: number | null, name: string, exceptId?: number): Flow<void> {
  if (yield* awaited(ctx.store.categories.siblingNamed(ctx.user.id, parentId, name, exceptId))) {
    throw new RuleError(`Name: a category named ${quote(name)} already exists at this level.`);
  }
}

/** Adds a category at the top level (Id_ParentCategory 0) or under one of the caller's; returns its id. */
export function* createCategory(ctx: CallContext, p: ParamsOf<'AddCategory'>): Flow<number> {
  const { store, user } = ctx;
  const name = rule.name(p.Name, 'Name');
  let parentId: number | null = null;
  if (p.Id_ParentCategory !== 0) {
    const parent = yield* awaited(store.categories.getFor(p.Id_ParentCategory, user.id));
    if (!parent) throw new RuleError(`Id_ParentCategory: category ${p.Id_ParentCategory} does not exist.`);
    if ((yield* awaited(store.categories.depth(parent.id))) >= rule.CATEGORY_DEPTH_MAX) {
      throw new RuleError(`Id_ParentCategory: categories nest at most ${rule.CATEGORY_DEPTH_MAX} levels deep.`);
    }
    parentId = parent.id;
  }
  yield* uniqueAmongSiblings(ctx, parentId, name);
  return yield* awaited(store.categories.insert(user.id, parentId, name));
}

export function* addCategory(ctx: CallContext, p: ParamsOf<'AddCategory'>): Flow<ApiCategoryTree> {
  yield* createCategory(ctx, p);
  return yield* categoryTree(ctx);
}

/** Renames one of the caller's categories; the name stays unique among its siblings. */
export function* editCategory(ctx: CallContext, p: ParamsOf<'EditCategory'>): Flow<ApiCategoryTree> {
  const { store, user } = ctx;
  const name = rule.name(p.Name, 'Name');
  const category = yield* awaited(store.categories.getFor(p.Id_Category, user.id));
  if (!category) throw new RuleError(`Id_Category: category ${p.Id_Category} does not exist.`);
  yield* uniqueAmongSiblings(ctx, category.parent_id, name, category.id);
  yield* awaited(store.categories.rename(category.id, name));
  return yield* categoryTree(ctx);
}
