// Free loopback ports for tests: the one helper of src/cli/port-check.ts.
export { freePort } from '../../src/cli/port-check';
