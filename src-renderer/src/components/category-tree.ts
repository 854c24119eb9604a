/** What the category tree's items share: which row is being renamed or extended, and the writes. */
import type { InjectionKey, Ref } from 'vue';

export interface CategoryTreeController {
  renamingId: Ref<number | null>;
  addingUnder: Ref<number | null>;
  collapsed: Ref<Set<number>>;
  toggle(id: number): void;
  startRename(id: number): void;
  startAdd(parentId: number): void;
  close(): void;
  rename(id: number, name: string): Promise<unknown>;
  add(name: string, parentId: number): Promise<unknown>;
}

export const CATEGORY_TREE: InjectionKey<CategoryTreeController> = Symbol('category-tree');
