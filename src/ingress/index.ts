export * from './handler';
export * from './routing';
export * from './node-server';
export * from './lambda';
export { RecentIds } from './dedupe';
