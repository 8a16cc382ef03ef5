// A backend's workflow in ANOTHER namespace calling the `xborder` Nexus service, as a backend that is a Temporal
// application writes it: the service definition is imported from src/nexus/service.ts, and failures are read by
// their xborder type. Each returns what it got (value or failure type) so the test asserts on plain data. The
// endpoint is the caller's identity (one per calling team: SECURITY.md, "Nexus"); default the stack's `xborder`.
import { createNexusServiceClient } from '@temporalio/workflow';
import {
  XBORDER_NEXUS_ENDPOINT,
  xborderFailureType,
  xborderNexusService,
  type StartedPaymentAnswer,
  type StartPaymentInput,
} from '../../../src/nexus/service';
import type { PaymentOutcome, PaymentState } from '../../../workflows/payment/api';

export type Called<T> = { value: T } | { failure: string | null; message: string };

const xborder = (endpoint = XBORDER_NEXUS_ENDPOINT) =>
  createNexusServiceClient({ service: xborderNexusService, endpoint });

async function called<T>(call: () => Promise<T>): Promise<Called<T>> {
  try {
    return { value: await call() };
  } catch (error) {
    return { failure: xborderFailureType(error), message: String(error) };
  }
}

/** Starts a payment through Nexus: the answer at once (funding instructions), then its outcome by callback. */
export async function nexusPaymentCaller(
  input: StartPaymentInput,
  endpoint?: string,
): Promise<Called<{ started: StartedPaymentAnswer; outcome: PaymentOutcome }>> {
  return called(async () => {
    const started = await xborder(endpoint).executeOperation('startPayment', input, {
      scheduleToCloseTimeout: '5 minutes',
    });
    const outcome = await xborder(endpoint).executeOperation(
      'paymentOutcome',
      { paymentKey: input.paymentKey },
      { scheduleToCloseTimeout: '1 hour' },
    );
    return { started, outcome };
  });
}

/** The startPayment operation alone: what it answers. */
export async function nexusStartCaller(
  input: StartPaymentInput,
  endpoint?: string,
): Promise<Called<StartedPaymentAnswer>> {
  return called(() =>
    xborder(endpoint).executeOperation('startPayment', input, { scheduleToCloseTimeout: '5 minutes' }),
  );
}

/** The paymentOutcome operation alone: the outcome by callback. */
export async function nexusOutcomeCaller(
  paymentKey: string,
  endpoint?: string,
): Promise<Called<PaymentOutcome>> {
  return called(() =>
    xborder(endpoint).executeOperation(
      'paymentOutcome',
      { paymentKey },
      { scheduleToCloseTimeout: '1 hour' },
    ),
  );
}

export async function nexusStateCaller(paymentKey: string, endpoint?: string): Promise<Called<PaymentState>> {
  return called(() =>
    xborder(endpoint).executeOperation(
      'getPaymentState',
      { paymentKey },
      { scheduleToCloseTimeout: '1 minute' },
    ),
  );
}

export async function nexusCancelCaller(
  paymentKey: string,
  reason: string,
  endpoint?: string,
): Promise<Called<PaymentState>> {
  return called(() =>
    xborder(endpoint).executeOperation(
      'cancelPayment',
      { paymentKey, reason },
      { scheduleToCloseTimeout: '1 minute' },
    ),
  );
}
