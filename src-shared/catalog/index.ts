export * from './wire-types';
export * from './records';
export * from './operations';
