export * from './on-file';
export { openAdmin, withAdmin, type AdminSession } from './session';
export {
  checkClientKey,
  checkLogin,
  checkPassword,
  LOGIN_MAX,
  CLIENT_KEY_MAX,
  PASSWORD_MAX,
  type HashOptions,
  type NewAccount,
  type NewRefueling,
  type NewTransaction,
  type NewTemplate,
  type NewUserOptions,
} from './operator';
export { DEMO_CAR_IDS, DEMO_CLIENT_KEY, DEMO_USERS, type DemoOptions, type DemoSummary } from './demo';
export { DEFAULT_HASH_PARAMS, TEST_HASH_PARAMS, type HashParams } from '../auth/password';
