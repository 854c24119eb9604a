export * from './store';
export * from './rows';
export * from './migrations';
export * from './commit-batcher';
