// Runs once in jest's own process (jest.config.js globalSetup). With --runInBand the test files run in this
// process too, so an error thrown from a timer after a file has finished has no test to fail and would end the
// whole run. One such error is known and harmless: a file closed its Temporal connection in afterAll while the
// client's gRPC retry of a call was still pending, and grpc-js throws "Channel has been shut down" from that
// retry's timer. It is reported and ignored; any other late error still ends the run as before.
import { writeGeneratedTestKeys } from './test-keys';

export default async function globalSetup(): Promise<void> {
  // One payload key for the whole run (jest-setup.ts falls back to one per file): tests generate their own secrets.
  if (
    !process.env.XBORDER_CODEC_KEYS &&
    !process.env.XBORDER_CODEC_KEYS_FILE &&
    process.env.XBORDER_CODEC !== 'disabled'
  ) {
    process.env.XBORDER_CODEC_KEYS_FILE = writeGeneratedTestKeys();
  }
  process.on('uncaughtException', (error: Error) => {
    if (error?.message === 'Channel has been shut down') {
      console.warn('[jest] ignored a late gRPC retry on a connection a test file had already closed');
      return;
    }
    // While a test runs, jest's own handler is installed too and fails that test; between files, nothing would.
    if (process.listenerCount('uncaughtException') > 1) return;
    console.error(error);
    process.exit(1);
  });
}
