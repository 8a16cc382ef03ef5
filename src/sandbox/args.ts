import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KnownSecretError, refuseKnownSecret } from '../security/known-secrets';
import { ConfigurationError } from '../support/environment';
import { withSecretFiles } from '../support/secret-files';
import { parseApiKeySpec } from './http/auth';
import { DEFAULT_PORT, type SandboxOptions, type SeedData } from './options';

/** A command line or environment the sandbox cannot start with. Not retryable: fix the arguments. */
export class SandboxArgsError extends Error {
  readonly type = 'SANDBOX_ARGS_ERROR';
  readonly retryable = false;
}

export const SANDBOX_USAGE = `Usage: sandbox [options]
  --port <n>              port (default ${DEFAULT_PORT}; env SANDBOX_PORT; 0 = any free port)
  --host <addr>           address to listen on (default 127.0.0.1; env SANDBOX_HOST)
  --allowed-host <name>   a Host name it answers besides IP literals and localhost, e.g. a container's service
                          name; repeatable (env SANDBOX_HOSTS, separated by spaces or ';'; DNS rebinding)
  --api-key <key[@ip,…]>  accepted API key, optionally with an IP allowlist; repeatable
                          (env SANDBOX_API_KEYS, separated by spaces or ';'; default sk_sandbox_test;
                          or env SANDBOX_API_KEYS_FILE, a file holding them)
  --webhook-url <url>     webhook endpoint; repeatable (env SANDBOX_WEBHOOK_URLS, separated by spaces or ';')
  --webhook-delivery <m>  broadcast (default: every event to every URL) or spread (each event to one URL,
                          a retry to the next; env SANDBOX_WEBHOOK_DELIVERY)
  --webhook-secret <s>    whsec_<base64> signing secret (env SANDBOX_WEBHOOK_SECRET; generated when absent;
                          or env SANDBOX_WEBHOOK_SECRET_FILE, a file holding it)
  --control-token <t>     token of the control routes /sandbox/*, sent as X-Sandbox-Control-Token
                          (env SANDBOX_CONTROL_TOKEN, or env SANDBOX_CONTROL_TOKEN_FILE, a file holding it;
                          generated per run when absent)
  --secrets-file <path>   where generated secrets are written, mode 0600 (env SANDBOX_SECRETS_FILE;
                          default sandbox-secrets.json next to --data-file, else in a new temporary directory)
  --as-of <iso>           start the sandbox clock at this instant (env SANDBOX_AS_OF)
  --data-file <path>      persist state and pending webhooks there (env SANDBOX_DATA_FILE)
  --seed <path>           JSON file of customers, accounts and balances to load (env SANDBOX_SEED_FILE)
  --demo-data             ready-made approved customers and accounts (env SANDBOX_DEMO_DATA=1)
  --rate-limit <n/sec|off> per-key limit, e.g. 100/10 (env SANDBOX_RATE_LIMIT; default 100 per 10 s)
  --quiet                 no per-request log line (env SANDBOX_QUIET=1)
  --help`;

/**
 * The sandbox's variables that hold a secret: each may instead be given as `<NAME>_FILE`, a mounted file
 * (src/support/secret-files.ts), so compose passes none of them in the environment (docs/deployment.md, "Secrets").
 */
export const SANDBOX_SECRET_ENV_VARS = [
  'SANDBOX_API_KEYS',
  'SANDBOX_WEBHOOK_SECRET',
  'SANDBOX_CONTROL_TOKEN',
] as const;

const SeedSchema = z.object({
  customers: z.array(z.record(z.string(), z.unknown())).optional(),
  accounts: z.array(z.record(z.string(), z.unknown())).optional(),
  balances: z.record(z.string(), z.number()).optional(),
});

const list = (value: string | undefined): string[] => (value ?? '').split(/[\s;]+/).filter(Boolean);
const truthy = (value: string | undefined): boolean =>
  value !== undefined && /^(1|true|yes|on)$/i.test(value);

/**
 * The sandbox's command line and environment → startSandbox options (flags win over env). Reads the seed
 * file. Used by `npm run sandbox` (src/sandbox/main.ts) and by `xborder sandbox`.
 */
export function parseSandboxArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
): { options: SandboxOptions; help: boolean; secretsFile?: string } {
  try {
    return parseArgsUnchecked(argv, withSecretFiles(env, SANDBOX_SECRET_ENV_VARS, 'sandbox'));
  } catch (err) {
    // A published or placeholder secret, or a secret file that is unreadable, empty or given beside its variable,
    // is a usage error like any other (exit 2, the message names the variable and the path, never the value).
    if (err instanceof KnownSecretError || err instanceof ConfigurationError)
      throw new SandboxArgsError(err.message);
    throw err;
  }
}

/** Options that take a value (`--name value` or `--name=value`) and options that are switches. */
const VALUED = new Set([
  'port',
  'host',
  'allowed-host',
  'api-key',
  'webhook-url',
  'webhook-delivery',
  'webhook-secret',
  'control-token',
  'secrets-file',
  'as-of',
  'data-file',
  'seed',
  'rate-limit',
]);
const SWITCHES = new Set(['demo-data', 'quiet']);

/** Each flag's values in the order given (repeatable ones keep all). */
type Flags = Map<string, string[]>;
/** The last value of a flag, else the environment variable's. */
type One = (name: string, envName: string) => string | undefined;

function readFlags(argv: readonly string[]): { flags: Flags; help: boolean } {
  const flags: Flags = new Map();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new SandboxArgsError(`Unexpected argument ${arg}\n${SANDBOX_USAGE}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    let value: string;
    if (SWITCHES.has(name)) value = eq < 0 ? 'true' : arg.slice(eq + 1);
    else if (VALUED.has(name)) {
      const next = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (next === undefined) throw new SandboxArgsError(`--${name} needs a value`);
      value = next;
    } else throw new SandboxArgsError(`Unknown option --${name}\n${SANDBOX_USAGE}`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { flags, help };
}

function parseArgsUnchecked(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { options: SandboxOptions; help: boolean; secretsFile?: string } {
  const { flags, help } = readFlags(argv);
  const one: One = (name, envName) => {
    const flag = flags.get(name)?.at(-1);
    // `--port=` or `--as-of=` is a mistake, not "the default": an empty flag value is refused (an empty environment
    // variable still means unset, as compose files write them)
    if (flag !== undefined && flag.trim() === '') throw new SandboxArgsError(`--${name} needs a value`);
    return flag ?? env[envName];
  };
  const options: SandboxOptions = {};
  addServerOptions(options, flags, one, env);
  addSecretOptions(options, one);
  const secretsFile = one('secrets-file', 'SANDBOX_SECRETS_FILE');
  addStateOptions(options, flags, one, env);
  return { options, help, ...(secretsFile ? { secretsFile } : {}) };
}

/** Where the sandbox listens, the keys it accepts and where its webhooks go. */
function addServerOptions(options: SandboxOptions, flags: Flags, one: One, env: NodeJS.ProcessEnv): void {
  const port = one('port', 'SANDBOX_PORT');
  if (port !== undefined) {
    options.port = Number(port);
    if (!/^\d{1,5}$/.test(port.trim()) || options.port > 65535)
      throw new SandboxArgsError(`--port must be 0..65535, got ${port}`);
  }
  const host = one('host', 'SANDBOX_HOST');
  if (host) options.host = host;
  const allowedHosts = flags.get('allowed-host') ?? list(env.SANDBOX_HOSTS);
  if (allowedHosts.length > 0) options.allowedHosts = allowedHosts.map((h) => h.trim().toLowerCase());
  const keys = flags.get('api-key') ?? list(env.SANDBOX_API_KEYS);
  if (keys.length > 0) options.apiKeys = keys.map(parseApiKeySpec);
  // Secrets given to the sandbox are real ones (the ingress and worker hold the same): none published in the repository.
  for (const [i, k] of (options.apiKeys ?? []).entries())
    refuseKnownSecret(`--api-key / SANDBOX_API_KEYS (#${i + 1})`, k.key, 'api-key');
  const urls = flags.get('webhook-url') ?? list(env.SANDBOX_WEBHOOK_URLS);
  for (const url of urls) {
    if (!URL.canParse(url)) throw new SandboxArgsError(`--webhook-url ${url} is not a URL`);
  }
  if (urls.length > 0) options.webhookUrls = urls;
  const delivery = one('webhook-delivery', 'SANDBOX_WEBHOOK_DELIVERY');
  if (delivery) {
    if (delivery !== 'broadcast' && delivery !== 'spread')
      throw new SandboxArgsError('--webhook-delivery must be broadcast or spread');
    options.webhookDelivery = delivery;
  }
}

/** The webhook signing secret and the control routes' token: real ones, none published in the repository. */
function addSecretOptions(options: SandboxOptions, one: One): void {
  const secret = one('webhook-secret', 'SANDBOX_WEBHOOK_SECRET');
  if (secret) {
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
      throw new SandboxArgsError('--webhook-secret must look like whsec_<base64>');
    refuseKnownSecret('--webhook-secret / SANDBOX_WEBHOOK_SECRET', secret, 'webhook-secret');
    options.webhookSecret = secret;
  }
  const controlToken = one('control-token', 'SANDBOX_CONTROL_TOKEN');
  if (controlToken) {
    refuseKnownSecret('--control-token / SANDBOX_CONTROL_TOKEN', controlToken, 'token');
    options.controlToken = controlToken;
  }
}

/** The clock, the state (persisted, seeded, demo), the request log and the rate limit. */
function addStateOptions(options: SandboxOptions, flags: Flags, one: One, env: NodeJS.ProcessEnv): void {
  const asOf = one('as-of', 'SANDBOX_AS_OF');
  if (asOf) {
    if (Number.isNaN(Date.parse(asOf)))
      throw new SandboxArgsError(`--as-of ${asOf} is not an ISO 8601 instant`);
    options.asOf = new Date(asOf);
  }
  const dataFile = one('data-file', 'SANDBOX_DATA_FILE');
  if (dataFile) options.dataFile = dataFile;
  const seedFile = one('seed', 'SANDBOX_SEED_FILE');
  if (seedFile) options.seed = readSeed(seedFile);
  if (flags.has('demo-data') ? truthy(flags.get('demo-data')!.at(-1)) : truthy(env.SANDBOX_DEMO_DATA))
    options.demoData = true;
  if (flags.has('quiet') ? truthy(flags.get('quiet')!.at(-1)) : truthy(env.SANDBOX_QUIET)) options.log = null;
  const rateLimit = one('rate-limit', 'SANDBOX_RATE_LIMIT');
  if (rateLimit) {
    if (rateLimit === 'off') options.rateLimit = false;
    else {
      const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(rateLimit);
      if (!m)
        throw new SandboxArgsError(`--rate-limit must be <requests>/<seconds> or off, got ${rateLimit}`);
      options.rateLimit = { requests: Number(m[1]), windowMs: Number(m[2]) * 1000 };
    }
  }
}

function readSeed(file: string): SeedData {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SandboxArgsError(`--seed ${file}: ${(err as Error).message}`);
  }
  const parsed = SeedSchema.safeParse(raw);
  if (!parsed.success)
    throw new SandboxArgsError(
      `--seed ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
