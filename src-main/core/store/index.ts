export * from './store';
export * from './rows';
export * from './migrations';
export * from './commit-batcher';
export * from './safety-copies';
export * from './local-file';
