// The outcome-unknown retry of POST /payments, in a file of its own: on the time-skipping server an
// activity retry leaves time skipping stuck for the rest of the server's life, so it gets its own server.
import { ApplicationFailure } from '@temporalio/common';
import { awaitCreatedUpdate } from '../../../workflows/payment/api';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();

describe('payment: create with an unknown outcome', () => {
  it('an outcome-unknown create is retried with the same idempotency key and creates one payment', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'NETWORK_ERROR', message: 'socket hang up', nonRetryable: false }),
    );
    const handle = await bed.startPayment();
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('CREATED');
    const keys = fake.callsOf('createPayment').map((c) => c.args[1]);
    expect(keys).toEqual([`${handle.workflowId}:create:0`, `${handle.workflowId}:create:0`]);
    expect(fake.payments.size).toBe(1);
    await handle.terminate('test over');
  });
});
