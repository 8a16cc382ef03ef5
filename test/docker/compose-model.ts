// Reads temporal-docker/ the way `docker compose` would, without a Docker engine: YAML with merge keys,
// ${...} interpolation from an env file, pass-through variables, secrets mounted from files (and the
// <NAME>_FILE variables that point at them), and the Dockerfile's stages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { z } from 'zod';
import { TEMPORAL_SECRET_ENV_VARS } from '../../src/client/connection-config';
import { CODEC_KEYS_SECRET_ENV_VARS } from '../../src/codec/keys';
import { CODEC_SERVER_SECRET_ENV_VARS } from '../../src/codec/server-config';
import { INGRESS_SECRET_ENV_VARS } from '../../src/ingress/config';
import { SANDBOX_SECRET_ENV_VARS } from '../../src/sandbox/args';
import { PROVIDER_SECRET_ENV_VARS } from '../../workers/config';
import { EVENTS_SECRET_ENV_VARS } from '../../workers/events-config';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DOCKER_DIR = path.join(ROOT, 'temporal-docker');

const HealthcheckSchema = z.object({
  test: z.array(z.string()).min(2),
  interval: z.string().optional(),
  timeout: z.string().optional(),
  retries: z.number().int().positive().optional(),
  start_period: z.string().optional(),
});

const ServiceSchema = z.object({
  image: z.string(),
  build: z.object({ context: z.string(), dockerfile: z.string(), target: z.string() }).optional(),
  profiles: z.array(z.string()).optional(),
  restart: z.string().optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  environment: z.record(z.string(), z.string().nullable()).optional(),
  volumes: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  /** top-level secrets mounted at /run/secrets/<name> (the short syntax: the only one we use) */
  secrets: z.array(z.string()).optional(),
  command: z.array(z.string()).optional(),
  healthcheck: HealthcheckSchema.optional(),
  stop_grace_period: z.string().optional(),
  /** tini as PID 1 (signals, zombies) */
  init: z.boolean().optional(),
  mem_limit: z.string().optional(),
});
export type Service = z.infer<typeof ServiceSchema>;

const ComposeSchema = z.object({
  name: z.string(),
  services: z.record(z.string(), ServiceSchema),
  volumes: z.record(z.string(), z.unknown().nullable()).optional(),
  /** file-sourced secrets (a missing file stops `docker compose up`) */
  secrets: z.record(z.string(), z.object({ file: z.string() }).strict()).optional(),
});
export type Compose = z.infer<typeof ComposeSchema>;

/** A compose file of temporal-docker/, parsed and checked against the shape we use. */
/** A service of a compose file; a missing one fails the test that names it. */
export function service(c: Compose, name: string): Service {
  const s = c.services[name];
  if (!s) throw new Error(`compose has no service ${name}`);
  return s;
}

export function loadCompose(file: string): Compose {
  return ComposeSchema.parse(parse(readFileSync(path.join(DOCKER_DIR, file), 'utf8'), { merge: true }));
}

/** KEY=VALUE lines of an env file (comments and blank lines skipped), as compose reads `.env`. */
export function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(DOCKER_DIR, file), 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.trim();
  }
  return env;
}

/**
 * Compose interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error},
 * ${VAR:+alt}. A missing required variable throws, as `docker compose` refuses to start.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (all, _x, braced, op, arg, bare) => {
      if (all === '$$') return '$';
      const name = (braced ?? bare) as string;
      const value = env[name];
      const set = value !== undefined;
      const nonEmpty = set && value !== '';
      switch (op as string | undefined) {
        case undefined:
          return value ?? '';
        case ':-':
          return nonEmpty ? value : arg;
        case '-':
          return set ? value : arg;
        case ':?':
          if (!nonEmpty) throw new Error(`required variable ${name} is missing: ${arg}`);
          return value;
        case '?':
          if (!set) throw new Error(`required variable ${name} is missing: ${arg}`);
          return value;
        case ':+':
          return nonEmpty ? arg : '';
        default:
          throw new Error(`unsupported interpolation ${all}`);
      }
    },
  );
}

/**
 * The environment a service's container gets: interpolated values, and variables listed without a
 * value taken from `dotenv` when set there (otherwise left unset, so the code's default applies).
 */
export function containerEnv(service: Service, dotenv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    if (value === null) {
      if (dotenv[name] !== undefined) env[name] = dotenv[name];
    } else {
      env[name] = interpolate(value, dotenv);
    }
  }
  return env;
}

/**
 * Every variable of our entries that holds a secret, as the code lists them (each entry reads `<NAME>_FILE` too),
 * and the PostgreSQL password's variables of the third-party images (postgres; Temporal's server and admin-tools).
 */
export const SECRET_ENV_VARS: readonly string[] = [
  ...TEMPORAL_SECRET_ENV_VARS,
  ...CODEC_KEYS_SECRET_ENV_VARS,
  ...CODEC_SERVER_SECRET_ENV_VARS,
  ...INGRESS_SECRET_ENV_VARS,
  ...SANDBOX_SECRET_ENV_VARS,
  ...PROVIDER_SECRET_ENV_VARS,
  ...EVENTS_SECRET_ENV_VARS,
  'POSTGRES_PASSWORD',
  'POSTGRES_PWD',
];

/** Where compose mounts a service's secret (short syntax). */
export const SECRETS_IN_CONTAINER = '/run/secrets';

/**
 * The host paths a service mounts, by their path in the container: its secrets' files (at /run/secrets/<name>) and
 * its bind mounts (./… or ${…} sources; named volumes are not host paths), interpolated with `dotenv`.
 */
export function hostMounts(c: Compose, s: Service, dotenv: Record<string, string>): Map<string, string> {
  const mounts = new Map<string, string>();
  for (const name of s.secrets ?? []) {
    const secret = c.secrets?.[name];
    if (!secret) throw new Error(`secret ${name} is mounted but not defined at the top level`);
    mounts.set(`${SECRETS_IN_CONTAINER}/${name}`, interpolate(secret.file, dotenv));
  }
  for (const spec of s.volumes ?? []) {
    const [source, target] = interpolate(spec, dotenv).split(':');
    if (source && target && (source.startsWith('.') || source.startsWith('/'))) mounts.set(target, source);
  }
  return mounts;
}

/**
 * The host file a path of the container is, through the service's mounts (the mount itself or a file in a
 * mounted folder); undefined when nothing mounted holds it.
 */
export function hostPathOf(mounts: Map<string, string>, inContainer: string): string | undefined {
  for (const [target, source] of mounts) {
    if (inContainer === target) return source;
    // kept as compose writes it (./tls/api-key, not path.join's tls/api-key)
    if (inContainer.startsWith(`${target}/`)) return `${source}/${inContainer.slice(target.length + 1)}`;
  }
  return undefined;
}

/**
 * The environment the service's process reads, as the test host can read it: containerEnv, with every
 * `<NAME>_FILE` of a secret (SECRET_ENV_VARS) turned from its path in the container to the file on this host (`local` maps a compose source
 * such as ./secrets/codec_keys to where the test made it). A `<NAME>_FILE` that no mount holds throws: the
 * process would find no file.
 */
export function processEnv(
  c: Compose,
  s: Service,
  dotenv: Record<string, string>,
  local: (source: string) => string,
): Record<string, string> {
  const env = containerEnv(s, dotenv);
  const mounts = hostMounts(c, s, dotenv);
  for (const [name, value] of Object.entries(env)) {
    const secret = name.endsWith('_FILE') ? name.slice(0, -'_FILE'.length) : undefined;
    if (!secret || !SECRET_ENV_VARS.includes(secret) || !value) continue;
    const source = hostPathOf(mounts, value);
    if (source === undefined) throw new Error(`${name}=${value} is not in a mounted secret or folder`);
    env[name] = local(source);
  }
  return env;
}

/** "127.0.0.1:4020:4020" → { host: '127.0.0.1', published: 4020, target: 4020 } after interpolation. */
export function parsePort(
  spec: string,
  dotenv: Record<string, string>,
): { host?: string; published: number; target: number } {
  const parts = interpolate(spec, dotenv).split(':');
  const target = Number(parts.at(-1));
  const published = Number(parts.at(-2) ?? target);
  return { ...(parts.length === 3 ? { host: parts[0] } : {}), published, target };
}

/** Compose durations we use: "30s", "1m", "1m30s". */
export function durationMs(text: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m || (!m[1] && !m[2])) throw new Error(`unsupported duration ${text}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 1000;
}

export interface DockerStage {
  name: string;
  from: string;
  /** Instructions after FROM, continuation lines joined. */
  instructions: Array<{ op: string; args: string }>;
}

/** The stages of a Dockerfile, with the ARG defaults declared before the first FROM. */
export function readDockerfile(file: string): { args: Record<string, string>; stages: DockerStage[] } {
  const lines = readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const text = rest.join(' ');
    const upper = op!.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(text);
      if (!m) throw new Error(`cannot read FROM ${text}`);
      stages.push({ from: m[1]!, name: m[2] ?? String(stages.length), instructions: [] });
    } else if (stages.length === 0) {
      if (upper === 'ARG') {
        const [name, value] = text.split('=');
        if (name && value !== undefined) args[name] = value;
      }
    } else {
      stages.at(-1)!.instructions.push({ op: upper, args: text });
    }
  }
  return { args, stages };
}

/** A stage's instructions including those inherited through `FROM <earlier stage>`. */
export function stageChain(stages: DockerStage[], name: string): DockerStage['instructions'] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((s) => s.name === stage.from);
  return [...(parent ? stageChain(stages, parent.name) : []), ...stage.instructions];
}

/** The last value of each ENV key along a stage chain (ENV a=1 b=2 form). */
export function stageEnv(instructions: DockerStage['instructions']): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { op, args } of instructions) {
    if (op !== 'ENV') continue;
    for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g))
      env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
  }
  return env;
}

/** What `tsc -p tsconfig.build.json` writes (paths relative to the repository root), and its include list. */
export function tscBuildOutputs(): { files: Set<string>; include: string[]; outDir: string } {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('cannot read tsconfig.build.json');
  const files = new Set<string>();
  for (const input of parsed.fileNames) {
    for (const output of ts.getOutputFileNames(parsed, input, false)) files.add(path.relative(ROOT, output));
  }
  const include = z.array(z.string()).parse((parsed.raw as { include?: unknown }).include);
  return { files, include, outDir: path.relative(ROOT, parsed.options.outDir ?? ROOT) };
}
