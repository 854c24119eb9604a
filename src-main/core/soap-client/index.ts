export * from './errors';
export * from './client';
export * from './wsdl';
export * from './urls';
export type { HttpAnswer, TransportLimits } from './transport';
export * from './retry';
