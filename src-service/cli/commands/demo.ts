/** `demo`: the demo data set. */
import { withAdmin } from '../../index';
import { defineCommand, storeOf, storeOptions } from '../command';

export const demo = defineCommand({
  name: 'demo',
  summary: 'Create the demo data: client key demo, users demo/demo and demo2/demo2.',
  options: { ...storeOptions },
  async run(o) {
    const s = await withAdmin(storeOf(o), (admin) => admin.createDemoData());
    console.log(
      `Demo data created: client key ${s.clientKey}, users ${s.users.map((u) => `${u.login}/${u.password}`).join(' and ')}, ` +
        `${s.transactions} transactions, ${s.refuelings} refuelings.`,
    );
  },
});
