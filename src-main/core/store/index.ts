export * from './store';
export * from './rows';
export * from './migrations';
