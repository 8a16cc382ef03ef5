export * from './errors';
export * from './keys';
export * from './encryption-codec';
export * from './data-converter';
export * from './identifiers';
export * from './schedule-binding';
export * from './nexus-caller-keys';
