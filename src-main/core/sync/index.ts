export * from './engine';
export * from './push';
export * from './merge';
export * from './snapshot';
export * from './writes';
