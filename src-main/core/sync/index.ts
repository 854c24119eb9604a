export * from './engine';
export * from './push';
export * from './snapshot';
export * from './writes';
