// Public API of src/contract (docs/contract-api.md). Pure: zod and own files only.
export * from './enums';
export * from './countries';
export * from './primitives';
export * from './errors';
export * from './payment';
export * from './payment-legacy-map';
export * from './customer';
export * from './account';
export * from './corridor';
export * from './rate';
export * from './requirements';
export * from './lists';
export * from './events';
export * from './rules';
export * from './money';
export * from './fees';
export * from './business-days';
