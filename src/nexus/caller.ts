// Who is calling the `xborder` Nexus service, and which payments are theirs (SECURITY.md, "Nexus").
//
// The caller's identity is the Nexus ENDPOINT its request was routed through: the server resolves it from its own
// endpoint registry and hands it to the worker with the task (`operationInfo().endpoint`, server 1.30+). Nothing the
// caller writes is identity: headers, links and the input are the caller's to choose (a request sent straight to
// the frontend's Nexus HTTP API can carry any of them). So each calling team gets its own endpoint (all targeting
// xborder's namespace and task queue), and the operator decides who may use which endpoint (Temporal Cloud: the
// endpoint's allowed caller namespaces; self-hosted: the authorizer, which sees `NexusEndpointName`). A request
// that names no endpoint (dispatched to the task queue directly, or an older server) is refused.
//
// The owner is recorded at start in the payment's memo (set by the same update-with-start as the client's, so it
// exists from the first event) and checked on every operation. A payment that is not the caller's is answered
// exactly as a key that was never used: no data, no hint that it exists.
import * as nexus from 'nexus-rpc';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, isGrpcServiceError, type Client } from '@temporalio/client';
import { getClient, operationInfo } from '@temporalio/nexus';
import { EncryptionCodec, type NexusCallerKeysState } from '../codec/encryption-codec';
import { configuredNexusCallerKeyring } from '../codec/nexus-caller-keys';
import { XBORDER_NEXUS_FAILURE_TYPES } from './service';

/** The memo field holding the owner of a payment started through Nexus: defined once, where the relay reads it too. */
export { NEXUS_OWNER_MEMO } from '../../workflows/nexus-outcome/api';
import { NEXUS_OWNER_MEMO } from '../../workflows/nexus-outcome/api';

/**
 * The caller of the current operation: the endpoint its request came through, or UNAUTHORIZED. Once the worker has
 * callers' own keys (XBORDER_NEXUS_CALLER_KEYS), an endpoint without a key set is refused too: its caller would hold
 * xborder's keys, which open every payment (SECURITY.md, "Nexus").
 */
export function currentCaller(): string {
  const endpoint = operationInfo().endpoint;
  if (!endpoint)
    throw new nexus.HandlerError(
      'UNAUTHORIZED',
      'the xborder Nexus service answers requests routed through a Nexus endpoint only (one endpoint per caller: SECURITY.md, "Nexus")',
      {
        retryableOverride: false,
      },
    );
  if (callerKeysOf(endpoint) === 'refused')
    throw new nexus.HandlerError(
      'UNAUTHORIZED',
      `the Nexus endpoint "${endpoint}" has no caller key set in XBORDER_NEXUS_CALLER_KEYS: xborder answers only callers with keys of their own (SECURITY.md, "Nexus")`,
      { retryableOverride: false },
    );
  return endpoint;
}

/** Whether `caller` has its own key set (XBORDER_NEXUS_CALLER_KEYS): its outcome then comes from a relay under it. */
export function callerHasOwnKeys(caller: string): boolean {
  return callerKeysOf(caller) === 'own-keys';
}

/**
 * Which keys `endpoint`'s requests use. Fails closed: the worker's codec when found on the client; when not found
 * (the client's internals changed, a second copy of the codec's class), the keyring the process read from
 * XBORDER_NEXUS_CALLER_KEYS, so an endpoint without a key set is still refused; 'xborder-keys' only when the
 * process has no callers' keys at all. (The codec never decrypts such a request's input: it reaches the handler as nothing, encryption-codec.ts.)
 */
function callerKeysOf(endpoint: string): NexusCallerKeysState {
  const codec = workerCodec();
  if (codec) return codec.nexusCallerKeysOf(endpoint);
  const keyring = configuredNexusCallerKeyring();
  if (!keyring) return 'xborder-keys';
  return keyring.forEndpoint(endpoint) ? 'own-keys' : 'refused';
}

/** The worker's codec (the Nexus handler's client shares the worker's data converter): it holds the callers' keys. */
function workerCodec(): Pick<EncryptionCodec, 'nexusCallerKeysOf'> | undefined {
  // optional reads: a client without a loaded data converter (a test's) has no codec, so no callers' keys
  const { options } = getClient() as { options?: { loadedDataConverter?: { payloadCodecs?: unknown[] } } };
  const codecs = options?.loadedDataConverter?.payloadCodecs ?? [];
  return codecs.find(
    (codec): codec is EncryptionCodec =>
      codec instanceof EncryptionCodec ||
      typeof (codec as Partial<EncryptionCodec> | null)?.nexusCallerKeysOf === 'function',
  );
}

/** The same answer for a payment that is not the caller's and for a key never used: nothing leaks. */
export function paymentNotFound(paymentKey: string): nexus.OperationError {
  const message = `no payment has the key ${paymentKey}`;
  return new nexus.OperationError('failed', message, {
    cause: ApplicationFailure.create({
      message,
      type: XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_NOT_FOUND,
      nonRetryable: true,
    }),
  });
}

/**
 * Who owns `workflowId`: the recorded owner, null when the workflow exists without one (started by the client, or
 * through Nexus before owners were recorded: no Nexus caller may act on it), undefined when it does not exist.
 */
export async function ownerOf(client: Client, workflowId: string): Promise<string | null | undefined> {
  try {
    const description = await client.workflow.getHandle(workflowId).describe();
    const owner = description.memo?.[NEXUS_OWNER_MEMO];
    return typeof owner === 'string' ? owner : null;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || (isGrpcServiceError(error) && error.code === 5))
      return undefined;
    throw error; // a read that failed: the SDK retries the request
  }
}

/** Goes on only when the payment exists and is the caller's; otherwise the not-found answer. */
export async function assertOwnedBy(
  client: Client,
  caller: string,
  paymentKey: string,
  workflowId: string,
): Promise<void> {
  if ((await ownerOf(client, workflowId)) !== caller) throw paymentNotFound(paymentKey);
}
