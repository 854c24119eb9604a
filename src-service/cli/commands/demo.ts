/** `demo`: the demo data set. */
import { createDemoData } from '../../index';
import { dataOption, defineCommand } from '../command';

export const demo = defineCommand({
  name: 'demo',
  summary: 'Create the demo data: client key demo, users demo/demo and demo2/demo2.',
  options: { data: dataOption },
  run(o) {
    const s = createDemoData(o.data);
    console.log(
      `Demo data created: client key ${s.clientKey}, users ${s.users.map((u) => `${u.login}/${u.password}`).join(' and ')}, ` +
        `${s.transactions} transactions, ${s.refuelings} refuelings.`,
    );
  },
});
