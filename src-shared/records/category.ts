/**
 * A category's fields. The service keeps categories as a tree (apiCategory: Id, Name, ChildCategories):
 * the parent and the place among the siblings are where a category stands in it. The parent is given
 * when a category is made (AddCategory's Id_ParentCategory) and never changed by a rename.
 */
import { v } from '../validate';
import { defineRecord, field, type Edited, type Locals, type Sent, type Stored } from './fields';
import { name } from './rules';

export const CATEGORY = defineRecord('category', {
  id: field({ type: 'id', wire: 'Id', param: 'Id_Category', column: 'id' }),
  name: field({ type: 'text', wire: 'Name', column: 'name', input: name(), match: true }),
  /** 0 for top level. */
  parentId: field({ type: 'integer', param: 'Id_ParentCategory', column: 'parent_id', input: v.whole(), once: true, match: true }),
  /** Its place among its siblings as the service listed them. */
  position: field({ type: 'integer', column: 'position' }),
});

/** A category as the local copy keeps it. */
export type CategoryStored = Stored<typeof CATEGORY>;
/** The marks this app keeps of a category (none yet: a `local` row of the table adds one). */
export type CategoryLocals = Locals<typeof CATEGORY>;
export type CategoryWrite = Sent<typeof CATEGORY>;
export type CategoryEdit = Edited<typeof CATEGORY>;
