// `xborder codec-server`: the codec server of docs/codec.md, configured from the environment; serves until a
// signal stops it.
import { EncryptionCodec, staticKeyProvider } from '../codec';
import { codecServerConfigFromEnv } from '../codec/server-config';
import { startCodecServer } from '../codec/server';

export async function runCodecServer(args: string[]): Promise<number> {
  if (args.includes('--help')) {
    console.log(`Usage: xborder codec-server   (configured from the environment, see docs/codec.md)
  XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE   the payload keys (as the worker's)
  XBORDER_CODEC_SERVER_TOKENS                     comma-separated bearer tokens (required)
  XBORDER_CODEC_SERVER_ORIGINS                    comma-separated UI origins allowed by CORS
  XBORDER_CODEC_SERVER_HOST / _PORT               default 127.0.0.1:4030`);
    return 0;
  }
  const config = codecServerConfigFromEnv();
  const server = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(config.keys))],
    tokens: config.tokens,
    allowedOrigins: config.allowedOrigins,
    host: config.host,
    port: config.port,
  });
  console.log(`codec-server: listening on ${server.url} (${config.tokens.length} token(s), CORS origins: ${config.allowedOrigins.join(', ') || 'none'})`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  console.log('codec-server: stopped');
  return 0;
}
