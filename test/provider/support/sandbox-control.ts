// Calls to the sandbox's control API (/sandbox/...), kept out of the client on purpose: the provider client
// never knows the sandbox exists.
import got from 'got';

/** `sandbox`: its URL and the control token's header (RunningSandbox.controlHeaders): the control routes need it. */
export function control(sandbox: { url: string; controlHeaders: Record<string, string> }) {
  const call = async <T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    json?: Record<string, unknown>,
  ): Promise<T> => {
    const headers = sandbox.controlHeaders;
    const response = await got(
      `${sandbox.url}${path}`,
      json === undefined ? { method, headers } : { method, headers, json },
    );
    return JSON.parse(response.body) as T;
  };
  return {
    setClock: (now: string) => call('POST', '/sandbox/clock', { now }),
    advance: (advance: string) => call('POST', '/sandbox/clock', { advance }),
    addFault: (fault: Record<string, unknown>) => call<{ id: string }>('POST', '/sandbox/faults', fault),
    clearFaults: () => call('DELETE', '/sandbox/faults'),
    webhookSecret: () => call<{ secret: string }>('GET', '/sandbox/webhook-secret').then((b) => b.secret),
    approveCustomer: (customerId: string) =>
      call('POST', `/sandbox/customers/${customerId}/review`, { outcome: 'APPROVED' }),
    fund: (paymentId: string) => call('POST', `/sandbox/payments/${paymentId}/fund`, {}),
  };
}
