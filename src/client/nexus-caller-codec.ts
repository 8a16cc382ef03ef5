// The data converter of a backend's worker that calls the `xborder` Nexus service. The operation's input is
// encrypted by the caller (the xborder worker must read it: the same codec keys); its outcome arrives by callback as
// the payment workflow wrote it, bound to `payment:<key>` of xborder's namespace (docs/codec.md, "Bound to its
// workflow"). The caller's codec reads exactly those payloads from exactly that namespace, nothing else from
// elsewhere (EncryptionCodecOptions.admitBoundTo).
import type { DataConverter } from '@temporalio/common';
import { codecDataConverter, codecOptionsFromEnv } from '../codec/data-converter';
import { codecKeysFromEnv, staticKeyProvider, type CodecKeyProvider } from '../codec/keys';
import type { EncryptionCodecOptions } from '../codec/encryption-codec';
import { paymentWorkflowId } from '../../workflows/payment/api';

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
    ],
  };
}

/**
 * The caller's data converter: xborder's codec keys (given, or XBORDER_CODEC_KEYS(_FILE) of `env`, the environment
 * the caller's entry read) and the caller's options.
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
        'a Nexus caller of xborder needs its codec keys (XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE, docs/codec.md)',
      );
    provider = staticKeyProvider(source.keys);
  }
  return codecDataConverter(provider, nexusCallerCodecOptions(xborderNamespace, codecOptionsFromEnv(env)));
}
