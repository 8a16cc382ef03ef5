import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSandboxArgs, SANDBOX_USAGE, SandboxArgsError } from './args';
import { DEFAULT_API_KEY } from './options';
import { startSandbox, type RunningSandbox } from './index';
import { writePrivateFile } from '../support/private-files';

/**
 * No process prints a secret (house rule): the secrets the sandbox generated go to a file only its user can read
 * (mode 0600), and the log says where. Secrets that were given are the caller's: they are not copied anywhere.
 */
export function writeGeneratedSecrets(
  sandbox: RunningSandbox,
  given: { webhookSecret: boolean; controlToken: boolean },
  file: string | undefined,
  dataFile: string | undefined,
): string | null {
  const generated: Record<string, string> = {};
  if (!given.webhookSecret) generated.webhookSecret = sandbox.webhookSecret;
  if (!given.controlToken) generated.controlToken = sandbox.controlToken;
  if (Object.keys(generated).length === 0) return null;
  const target =
    file ??
    (dataFile
      ? path.join(path.dirname(dataFile), 'sandbox-secrets.json')
      : path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-sandbox-')), 'secrets.json'));
  // 0600 even over an existing file (writeFileSync's mode applies to new files only)
  writePrivateFile(target, `${JSON.stringify(generated, null, 2)}\n`);
  return target;
}

/** `npm run sandbox -- [options]`: runs the sandbox until SIGINT/SIGTERM. */
export async function runSandboxMain(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { options, help, secretsFile } = parseSandboxArgs(argv, env);
  if (help) {
    console.log(SANDBOX_USAGE);
    return;
  }
  const sandbox = await startSandbox(options);
  const kept = writeGeneratedSecrets(
    sandbox,
    { webhookSecret: options.webhookSecret !== undefined, controlToken: options.controlToken !== undefined },
    secretsFile,
    options.dataFile,
  );
  console.log(
    `sandbox listening on ${sandbox.url} (API ${sandbox.url}/v1, OpenAPI ${sandbox.url}/openapi.json)`,
  );
  const apiKey = options.apiKeys
    ? 'the API key(s) given (--api-key / SANDBOX_API_KEYS)'
    : `the public default API key ${DEFAULT_API_KEY} (pass --api-key for a real one)`;
  console.log(
    `clock ${sandbox.clock.now().toISOString()}; accepts ${apiKey}; generated secrets (webhook secret, control token) ${kept ? `in ${kept} (mode 0600)` : 'none: all given'}`,
  );
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  runSandboxMain(process.argv.slice(2), process.env).catch((err: unknown) => {
    console.error(err instanceof SandboxArgsError ? err.message : err);
    process.exit(2);
  });
}
