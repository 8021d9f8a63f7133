export * from './decider';
export * from './pipeline';
