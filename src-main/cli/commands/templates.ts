/** `templates`: the transaction templates. */
import { listing } from '../command';
import * as fmt from '../format';

export const templates = listing('templates', 'Lists the transaction templates.', (core) => core.listTemplates(), fmt.templatesText);
