/** `categories`: the category tree and the favourites. */
import { listing } from '../command';
import * as fmt from '../format';

export const categories = listing(
  'categories',
  'Shows the category tree and the favourites.',
  (core) => core.getCategoryTree(),
  (tree) => fmt.categoriesText(tree.all, tree.favorites),
);
