// The data converter of a backend's worker that calls the `xborder` Nexus service (docs/codec.md, "Nexus callers").
// Its keys are the caller's own key set, the one xborder's operator lists for the caller's endpoint in
// XBORDER_NEXUS_CALLER_KEYS: the caller encrypts its inputs with it and reads xborder's answers under it; the
// outcome arrives by callback from the relay `nexus-outcome:<endpoint>:<key>` of xborder's namespace, bound to it and
// under the caller's key. Where xborder's worker has no XBORDER_NEXUS_CALLER_KEYS (less safe: SECURITY.md "Nexus"),
// the caller holds xborder's keys and the outcome arrives as the payment wrote it, bound to `payment:<key>`. The
// caller's codec reads exactly those payloads from exactly that namespace, nothing else from elsewhere
// (EncryptionCodecOptions.admitBoundTo).
import type { DataConverter } from '@temporalio/common';
import { codecDataConverter, codecOptionsFromEnv } from '../codec/data-converter';
import { codecKeysFromEnv, staticKeyProvider, type CodecKeyProvider } from '../codec/keys';
import type { EncryptionCodecOptions } from '../codec/encryption-codec';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { NEXUS_OUTCOME_WORKFLOW_ID_PREFIX } from '../codec/nexus-outcome-binding';

/** The codec options of a Nexus caller of the xborder service running in `xborderNamespace`. */
export function nexusCallerCodecOptions(
  xborderNamespace: string,
  base: EncryptionCodecOptions = {},
): EncryptionCodecOptions {
  return {
    ...base,
    admitBoundTo: [
      ...(base.admitBoundTo ?? []),
      { namespace: xborderNamespace, workflowIdPrefix: paymentWorkflowId('') },
      { namespace: xborderNamespace, workflowIdPrefix: NEXUS_OUTCOME_WORKFLOW_ID_PREFIX },
    ],
  };
}

/**
 * The caller's data converter: the caller's keys (given, or XBORDER_CODEC_KEYS(_FILE) of `env`, the environment the
 * caller's entry read: the caller's own key set, as listed for its endpoint in xborder's XBORDER_NEXUS_CALLER_KEYS)
 * and the caller's options.
 */
export function nexusCallerDataConverter(
  xborderNamespace: string,
  env: NodeJS.ProcessEnv,
  keys?: CodecKeyProvider,
): DataConverter {
  let provider = keys;
  if (!provider) {
    const source = codecKeysFromEnv(env);
    if (source.kind !== 'keys')
      throw new Error(
        'a Nexus caller of xborder needs its codec keys (XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE: its own key set, docs/codec.md "Nexus callers")',
      );
    provider = staticKeyProvider(source.keys);
  }
  return codecDataConverter(provider, nexusCallerCodecOptions(xborderNamespace, codecOptionsFromEnv(env)));
}
