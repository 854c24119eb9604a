/**
 * The category forest as the service last gave it (parent_id 0 is top level; position keeps the service's
 * order of siblings) and its favourites, flat, in the service's ranking.
 */
import { CATEGORY } from '../../../src-shared/records/category';
import { columnList, columnsOf, paramList, rowParams, rowReader, type Prepare, type Row } from './record-sql';
import type { CategoryForest, CategoryRow, FavoriteRow } from './rows';

const CATEGORY_COLUMNS = columnsOf(CATEGORY, CATEGORY.stored);
const INSERT_CATEGORY = `INSERT INTO categories (${columnList(CATEGORY_COLUMNS)}) VALUES (${paramList(CATEGORY_COLUMNS)})`;
const categoryOf = rowReader<CategoryRow>(CATEGORY, CATEGORY.stored);

export class Categories {
  constructor(private readonly sql: Prepare) {}

  list(): CategoryRow[] {
    return (this.sql(`SELECT ${columnList(CATEGORY_COLUMNS)} FROM categories ORDER BY parent_id, position`).all() as Row[]).map(categoryOf);
  }

  favorites(): FavoriteRow[] {
    return (this.sql('SELECT category_id, name FROM category_favorites ORDER BY rank').all() as Row[]).map((r) => ({
      id: r.category_id as number,
      name: r.name as string,
    }));
  }

  /** Replaces the category forest with the one the service returned (CategoryTree, AddCategory, EditCategory). */
  replace(forest: CategoryForest): void {
    this.sql('DELETE FROM categories').run();
    this.sql('DELETE FROM category_favorites').run();
    const cat = this.sql(INSERT_CATEGORY);
    for (const c of forest.all) cat.run(rowParams(CATEGORY, CATEGORY.stored, c));
    const fav = this.sql('INSERT INTO category_favorites (rank, category_id, name) VALUES (?, ?, ?)');
    forest.favorites.forEach((f, rank) => fav.run(rank, f.id, f.name));
  }
}
