export * from './entries';
export * from './outbox';
export * from './dependencies';
export * from './learned';
export * from './view-state';
export * from './local-view';
export * from './writes';
export * from './revive';
