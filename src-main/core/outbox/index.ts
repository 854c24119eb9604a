export * from './entries';
export * from './outbox';
export * from './dependencies';
export * from './local-view';
export * from './writes';
