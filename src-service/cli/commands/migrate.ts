/** `migrate`: a SQLite data file copied into an empty PostgreSQL database, checked before it commits. */
import { UsageError } from '../../../src-node/cli';
import { copyToPostgres } from '../../store/copy';
import { defineCommand } from '../command';
import { DATABASE_URL_ENV, commandLineUrl, environmentUrl } from '../store';

const number = new Intl.NumberFormat('en');

export const migrate = defineCommand({
  name: 'migrate',
  summary: 'Copy a SQLite data file into an empty PostgreSQL database: every record, ids kept, counts, sums and balances checked.',
  options: {
    from: {
      type: 'string',
      value: '<file.sqlite>',
      description:
        'the data file to copy (stop the service first; a file of an older version is brought up to date first, as serve would, and otherwise left as it is)',
      required: true,
    },
    to: {
      type: 'string',
      value: '<postgres://user@host/db>',
      description: `the database (else ${DATABASE_URL_ENV}); its password never here`,
    },
  },
  notes:
    "The copy is one transaction: it is committed only once every row read back equals the file's, and every balance recomputed from the copied transactions equals the file's; otherwise nothing is left in the database.",
  async run(o) {
    const url = o.to !== undefined ? commandLineUrl(o.to, '--to') : environmentUrl();
    if (url === undefined) throw new UsageError(`Option --to is required (or ${DATABASE_URL_ENV}).`);
    const report = await copyToPostgres(o.from, url);
    const rows = Object.entries(report.rows).map(([table, n]) => `${number.format(n)} ${table.replace('_', ' ')}`);
    console.log(`Copied ${rows.join(', ')}.`);
    console.log(
      `Checked: every row read back equals the file's; ${number.format(report.balancesChecked)} balances recomputed from the transactions equal the file's.`,
    );
  },
});
