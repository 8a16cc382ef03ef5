// `xborder codec-server`: the codec server of docs/codec.md (src/codec/main.ts), configured from the environment.
import type { Environment } from '../support/environment';

export async function runCodecServer(args: string[], env: Environment): Promise<number> {
  if (args.includes('--help')) {
    console.log(`Usage: xborder codec-server   (configured from the environment, see docs/codec.md)
  XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE   the payload keys (the worker's)
  XBORDER_CODEC_SERVER_TOKENS                     comma-separated bearer tokens for /decode, 24+ characters (required)
  XBORDER_CODEC_SERVER_ENCODE_TOKENS              comma-separated tokens that may also /encode (unset: /encode is 403;
                                                  its payloads are unbound, read only under XBORDER_CODEC_UNBOUND=admit)
  XBORDER_CODEC_SERVER_ORIGINS                    comma-separated UI origins allowed by CORS
  XBORDER_CODEC_SERVER_HOST / _PORT               default 127.0.0.1:4030
${(await import('./service-help')).codecServerEnvironmentHelp()}`);
    return 0;
  }
  const { codecServerConfigFromEnv } = await import('../codec/server-config');
  await (await import('../codec/main')).runCodecServer(codecServerConfigFromEnv(env));
  return 0;
}
