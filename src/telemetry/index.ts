export * from './redact';
export * from './logger';
export * from './metrics';
export * from './prometheus-registry';
export * from './metrics-server';
export * from './runtime';
export * from './activity-interceptor';
export * from './ingress-telemetry';
