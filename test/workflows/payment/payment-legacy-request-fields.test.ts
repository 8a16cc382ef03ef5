// payment workflow on the time-skipping server: a legacy request field the spec gives no date
// (documentReference, spec: POST /payments body) is accepted and ignored, not refused; runs recorded before
// that decision replay their refusal (test/replay/histories/pre-document-reference-accepted--payment.json).
import { awaitCreatedUpdate } from '../../../workflows/payment/api';
import { paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

describe('payment: documentReference in the request', () => {
  it('is accepted (the payment is created) and not passed on as a refusal', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment({ request: paymentRequest({ documentReference: 'doc-7' }) });
    const created = await handle.executeUpdate(awaitCreatedUpdate);
    expect(created.outcome).toBe('CREATED');
    expect(fake.callsOf('createPayment')).toHaveLength(1);
  });
});
