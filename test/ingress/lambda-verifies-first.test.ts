// The Lambda ingress checks a webhook's signature before it touches Temporal: an unsigned caller never makes the
// container connect, and never reads internal text (a connection or codec configuration error) in an answer.
// No Temporal here: the connection is a fake that counts attempts.
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createLambdaIngress } from '../../src/ingress/lambda-main';
import { lambdaEvent, signedPaymentEvent, TEST_SECRET } from '../lambda/events';

const INTERNAL = 'XBORDER_CODEC_KEYS: key "k1" is not 32 bytes of base64';

function ingressWithFailingConnect() {
  let connects = 0;
  const ingress = createLambdaIngress(
    {
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      XBORDER_WEBHOOK_SECRETS: TEST_SECRET,
      XBORDER_TASK_QUEUE: 'never-used',
      XBORDER_LOG_LEVEL: 'ERROR',
    },
    {
      connect: async (): Promise<Client> => {
        connects++;
        throw new Error(INTERNAL);
      },
    },
  );
  return { ingress, connects: () => connects };
}

describe('the Lambda ingress verifies before it connects', () => {
  it('answers an unsigned or forged event 401 without a Temporal connection', async () => {
    const { ingress, connects } = ingressWithFailingConnect();
    const unsigned = { ...signedPaymentEvent(`pay_${randomUUID()}`), headers: {} };
    const forged = signedPaymentEvent(
      `pay_${randomUUID()}`,
      `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
    );
    for (const webhook of [unsigned, forged]) {
      const result = await ingress.handle(lambdaEvent('apiGatewayV2', webhook));
      expect(result.statusCode).toBe(401);
      expect(result.body).not.toContain('XBORDER_CODEC_KEYS');
    }
    expect(connects()).toBe(0);
  });

  it('answers a signed event 503 with a fixed text when the connection fails: the cause goes to the log only', async () => {
    const { ingress, connects } = ingressWithFailingConnect();
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const logs = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const result = await ingress.handle(
        lambdaEvent('functionUrl', signedPaymentEvent(`pay_${randomUUID()}`)),
      );
      expect(result.statusCode).toBe(503);
      expect(JSON.parse(result.body)).toMatchObject({ ok: false, code: 'TEMPORAL_UNAVAILABLE' });
      expect(result.body).not.toContain('XBORDER_CODEC_KEYS');
      expect(connects()).toBe(1);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
