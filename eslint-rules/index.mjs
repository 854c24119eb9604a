/**
 * The house rules: what the team agreed on that no published rule says. Each rule holds one line of the
 * developers' guide; `eslint.config.mjs` says where each applies.
 */
import noClockInTests from './no-clock-in-tests.mjs';
import noSleepInTests from './no-sleep-in-tests.mjs';
import noSqlOutsideStore from './no-sql-outside-store.mjs';

export default {
  meta: { name: 'eslint-plugin-house' },
  rules: {
    'no-clock-in-tests': noClockInTests,
    'no-sleep-in-tests': noSleepInTests,
    'no-sql-outside-store': noSqlOutsideStore,
  },
};
