export * from './decimal';
export * from './currencies';
export * from './sum';
