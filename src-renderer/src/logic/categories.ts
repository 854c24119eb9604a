/** The category tree flattened for lookups and for the picker (favourites first, then the tree). */
import type { CategoryNode, CategoryTreeView } from '../../../src-shared/app-api';

export interface CategoryOption {
  id: number;
  name: string;
  /** "Car › Fuel" */
  path: string;
  depth: number;
  favorite: boolean;
  pending: boolean;
}

export const PATH_SEPARATOR = ' › ';

/** Every node of the forest, depth first, with its path of names. */
export function flattenTree(nodes: readonly CategoryNode[], depth = 0, parents: string[] = []): CategoryOption[] {
  const out: CategoryOption[] = [];
  for (const node of nodes) {
    const names = [...parents, node.name];
    out.push({ id: node.id, name: node.name, path: names.join(PATH_SEPARATOR), depth, favorite: false, pending: node.pending });
    out.push(...flattenTree(node.children, depth + 1, names));
  }
  return out;
}

/** What the picker lists: favourites (with their full paths) first, then the whole tree. */
export function pickerOptions(tree: CategoryTreeView): { favorites: CategoryOption[]; all: CategoryOption[] } {
  const all = flattenTree(tree.all);
  const byId = new Map(all.map((o) => [o.id, o]));
  const favorites = tree.favorites.map((f) => ({
    ...(byId.get(f.id) ?? { id: f.id, name: f.name, path: f.name, depth: 0, pending: f.pending }),
    depth: 0,
    favorite: true,
  }));
  return { favorites, all };
}

/** Case- and accent-insensitive match of every word of the query in the path. */
export function matchesQuery(option: CategoryOption, query: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const path = fold(option.path);
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => path.includes(word));
}

/** The names of a category's siblings (for checking a new or renamed name before queueing it). */
export function siblingNames(tree: readonly CategoryNode[], parentId: number, exceptId?: number): string[] {
  const find = (nodes: readonly CategoryNode[]): CategoryNode[] | null => {
    for (const n of nodes) {
      if (n.id === parentId) return n.children;
      const inner = find(n.children);
      if (inner) return inner;
    }
    return null;
  };
  const siblings = parentId === 0 ? tree : (find(tree) ?? []);
  return siblings.filter((n) => n.id !== exceptId).map((n) => n.name);
}

/** True when `name` collides with a sibling (compared case-insensitively, as the service compares). */
export function isDuplicateName(name: string, siblings: readonly string[]): boolean {
  const wanted = name.trim().toLocaleLowerCase();
  return siblings.some((s) => s.trim().toLocaleLowerCase() === wanted);
}
