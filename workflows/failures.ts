// The activity-failure helpers, re-exported for the workflows that import them from here (activity-failures.ts).

export { applicationFailureOf, failureViolation, providerViolations } from './activity-failures';
