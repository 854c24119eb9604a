export * from './views';
export * from './insight-views';
export * from './register-views';
export * from './data-views';
export * from './methods';
export * from './errors';
export * from './events';
export * from './bridge-protocol';
