export * from './secret-store';
export * from './prompt-secret-store';
