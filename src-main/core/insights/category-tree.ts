/**
 * Walks of the category forest in the local view, up and down. The tree comes from the service and
 * pending writes; a broken one (a cycle) must not hang a report, so the walks are bounded.
 */
import type { ViewCategory } from '../outbox/view-state';

/** Deeper than any real tree; a walk that goes further is in a cycle. */
const MAX_DEPTH = 64;

/** The category and its ancestors, itself first, the top-level one last; empty for an id not in the tree. */
export function ancestry(categories: ReadonlyMap<number, ViewCategory>, id: number): ViewCategory[] {
  const out: ViewCategory[] = [];
  for (let c = categories.get(id); c && out.length < MAX_DEPTH; c = categories.get(c.parentId)) out.push(c);
  return out;
}

/** A category with every category below it. */
export function withDescendants(categories: Iterable<ViewCategory>, id: number): number[] {
  const children = new Map<number, number[]>();
  for (const c of categories) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const out: number[] = [];
  const queue = [id];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    out.push(next);
    // Category 0 stands for "none": its "children" are the top-level categories, not a subtree.
    if (next !== 0) queue.push(...(children.get(next) ?? []));
  }
  return out;
}
