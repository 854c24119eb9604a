/** The category tree and favourites; adding and renaming queue writes. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { CategoryTreeView, WriteResult } from '../../../src-shared/app-api';
import { api } from '../api';
import { i18n } from '../i18n';
import { flattenTree, pickerOptions } from '../logic/categories';
import { createLoader, write } from './loader';

export const useCategoriesStore = defineStore('categories', () => {
  const tree = ref<CategoryTreeView>({ favorites: [], all: [] });
  const loader = createLoader(
    () => api().getCategoryTree(),
    (t) => (tree.value = t),
  );

  const flat = computed(() => flattenTree(tree.value.all));
  const byId = computed(() => new Map(flat.value.map((o) => [o.id, o])));
  const options = computed(() => pickerOptions(tree.value));

  /** "Car › Fuel" for an id; null for no category (0) or one not in the tree. */
  function pathOf(id: number): string | null {
    return byId.value.get(id)?.path ?? null;
  }

  /**
   * What a record's category shows as: its path in the tree, else the name the record came with, else "another
   * user's category" (never its number): the service lists each user only their own categories and deletes none,
   * so an id not in the tree is another user's, on the rows of an account shared with this one; empty for none (0).
   */
  function label(id: number, name: string | null = null): string {
    return id === 0 ? '' : (pathOf(id) ?? name ?? i18n.global.t('names.othersCategory'));
  }

  // A write changes the categories table: the screens showing it read again on the core's data-changed event.
  const add = (name: string, parentId: number): Promise<WriteResult> => write(() => api().addCategory({ name, parentId }));
  const rename = (id: number, name: string): Promise<WriteResult> => write(() => api().renameCategory({ id, name }));

  return {
    tree,
    flat,
    byId,
    options,
    pathOf,
    label,
    loading: loader.loading,
    loaded: loader.loaded,
    error: loader.error,
    load: loader.load,
    add,
    rename,
  };
});
