export * from './errors';
export * from './client';
export * from './wsdl';
export * from './urls';
export * from './transport';
export * from './answers';
export * from './retry';
