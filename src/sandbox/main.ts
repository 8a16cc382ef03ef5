import { parseSandboxArgs, SANDBOX_USAGE, SandboxArgsError } from './args';
import { startSandbox } from './index';

/** `npm run sandbox -- [options]`: runs the sandbox until SIGINT/SIGTERM. */
export async function runSandboxMain(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { options, help } = parseSandboxArgs(argv, env);
  if (help) {
    console.log(SANDBOX_USAGE);
    return;
  }
  const sandbox = await startSandbox(options);
  console.log(`sandbox listening on ${sandbox.url} (API ${sandbox.url}/v1, OpenAPI ${sandbox.url}/openapi.json)`);
  console.log(`clock ${sandbox.clock.now().toISOString()}; API key ${sandbox.apiKey}; webhook secret ${sandbox.webhookSecret}`);
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
