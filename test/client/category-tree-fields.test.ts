/**
 * The category tree the screens read carries every field of the category's table (its place among its
 * siblings aside, which is the tree's order) and the marks kept here, as the other views do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CategoryNode } from '../../src-shared/app-api';
import { CATEGORY } from '../../src-shared/records/category';
import { openCore, tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-tree-');
afterAll(() => tmp.remove());

describe('the category tree', () => {
  it("holds every field of the category's table in each node", async () => {
    const core = openCore(tmp.file('local.sqlite'));
    try {
      const top = await core.addCategory({ name: 'Car', parentId: 0 });
      await core.addCategory({ name: 'Fuel', parentId: top.id });
      const { all } = await core.getCategoryTree();
      const fields = [...CATEGORY.stored.filter((k) => k !== 'position'), ...CATEGORY.local, 'children', 'pending'].sort();
      const walk = (nodes: CategoryNode[]): CategoryNode[] => nodes.flatMap((n) => [n, ...walk(n.children)]);
      const nodes = walk(all);
      expect(nodes.map((n) => n.name)).toEqual(['Car', 'Fuel']);
      for (const n of nodes) expect(Object.keys(n).sort(), n.name).toEqual(fields);
      expect(nodes[1]).toMatchObject({ parentId: top.id, pending: true });
    } finally {
      await core.close();
    }
  });
});
