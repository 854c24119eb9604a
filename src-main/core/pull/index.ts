export * from './pull';
