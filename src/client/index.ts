export * from './connection-config';
export * from './connect';
export * from './payments';
export * from './stuck';
