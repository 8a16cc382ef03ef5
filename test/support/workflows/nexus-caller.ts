// A backend's workflow in ANOTHER namespace calling the `xborder` Nexus service, as a backend that is a Temporal
// application writes it: the service definition is imported from src/nexus/service.ts, and failures are read by
// their xborder type. Each returns what it got (value or failure type) so the test asserts on plain data.
import { createNexusServiceClient } from '@temporalio/workflow';
import { XBORDER_NEXUS_ENDPOINT, xborderFailureType, xborderNexusService } from '../../../src/nexus/service';
import type { PaymentInput, PaymentOutcome, PaymentState } from '../../../workflows/payment/api';

export type Called<T> = { value: T } | { failure: string | null; message: string };

const xborder = () => createNexusServiceClient({ service: xborderNexusService, endpoint: XBORDER_NEXUS_ENDPOINT });

async function called<T>(call: () => Promise<T>): Promise<Called<T>> {
  try {
    return { value: await call() };
  } catch (error) {
    return { failure: xborderFailureType(error), message: String(error) };
  }
}

/** Starts a payment through Nexus and waits for its outcome (delivered by callback). */
export async function nexusPaymentCaller(input: PaymentInput): Promise<Called<PaymentOutcome>> {
  return called(() => xborder().executeOperation('startPayment', input, { scheduleToCloseTimeout: '1 hour' }));
}

export async function nexusStateCaller(paymentKey: string): Promise<Called<PaymentState>> {
  return called(() => xborder().executeOperation('getPaymentState', { paymentKey }, { scheduleToCloseTimeout: '1 minute' }));
}

export async function nexusCancelCaller(paymentKey: string, reason: string): Promise<Called<PaymentState>> {
  return called(() =>
    xborder().executeOperation('cancelPayment', { paymentKey, reason }, { scheduleToCloseTimeout: '1 minute' }),
  );
}
