/** Templates (define-transactions) in the service's order (`position`). */
import { TEMPLATE } from '../../../src-shared/records/template';
import { columnList, columnsOf, paramList, rowParams, rowReader, type Prepare, type Row } from './record-sql';
import type { TemplateRow } from './rows';

const TEMPLATE_COLUMNS = columnsOf(TEMPLATE, TEMPLATE.stored);
const INSERT_TEMPLATE = `INSERT INTO templates (${columnList(TEMPLATE_COLUMNS)}, position) VALUES (${paramList(TEMPLATE_COLUMNS)}, @position)`;
const templateOf = rowReader<TemplateRow>(TEMPLATE, TEMPLATE.stored);

export class Templates {
  constructor(private readonly sql: Prepare) {}

  list(): TemplateRow[] {
    return (this.sql('SELECT * FROM templates ORDER BY position').all() as Row[]).map(templateOf);
  }

  /** Replaces the templates with the service's list, in its order. */
  replace(templates: readonly TemplateRow[]): void {
    this.sql('DELETE FROM templates').run();
    const insert = this.sql(INSERT_TEMPLATE);
    templates.forEach((t, position) => insert.run({ ...rowParams(TEMPLATE, TEMPLATE.stored, t), position }));
  }
}
