export * from './decimal';
export * from './currencies';
