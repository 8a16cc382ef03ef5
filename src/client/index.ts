export * from './connection-config';
export * from './connect';
export * from './payments';
export * from './stuck';
export * from './schedules';
export * from './indicative-quote';
export * from './reconcile-schedule';
