export * from './entries';
export { EntryChanged, Outbox } from '../store/outbox';
export * from './dependencies';
export * from './learned';
export * from './view-state';
export * from './local-view';
export * from './writes';
export * from './revive';
