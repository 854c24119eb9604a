export * from './operator';
export * from './demo';
export { DEFAULT_HASH_PARAMS, TEST_HASH_PARAMS, type HashParams } from '../auth/password';
