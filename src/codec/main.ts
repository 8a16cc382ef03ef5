// Codec server entrypoint: `xborder codec-server` / `node dist/src/codec/main.js` (temporal-docker's
// codec-server image). The entry reads the environment once (server-config.ts); runCodecServer takes the typed
// config. Stops on SIGTERM/SIGINT.
import { EncryptionCodec } from './encryption-codec';
import { staticKeyProvider } from './keys';
import { startCodecServer } from './server';
import { codecServerConfigFromEnv, type CodecServerConfig } from './server-config';

export async function runCodecServer(config: CodecServerConfig): Promise<void> {
  const server = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(config.keys))],
    tokens: config.tokens,
    encodeTokens: config.encodeTokens,
    allowedOrigins: config.allowedOrigins,
    allowedHosts: config.allowedHosts,
    host: config.host,
    port: config.port,
  });
  console.log(
    `codec-server: listening on ${server.url} (${config.tokens.length} token(s), /encode ${config.encodeTokens.length > 0 ? `on for ${config.encodeTokens.length} encode token(s): its payloads are unbound` : 'off'}, CORS origins: ${config.allowedOrigins.join(', ') || 'none'})`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  console.log('codec-server: stopped');
}

if (require.main === module) {
  Promise.resolve()
    .then(() => runCodecServer(codecServerConfigFromEnv(process.env)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
