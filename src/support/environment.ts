// A process's environment as its entry read it. Configuration flows one way (docs/architecture.md,
// "Configuration"): only an entry module (worker, Lambda handlers, ingress, CLI, codec server, sandbox) touches
// process.env, once, and hands this record to the parsers of each part's config; every module below takes the
// typed config they return. Lint (`no-restricted-properties` in eslint.config.mjs) holds the rule.
import type { z } from 'zod';

/** Variables by name, as `process.env` holds them; read-only, since configuration never flows back up. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where each process's variables are listed, with the page that describes them: the end of each configuration error. */
export const CONFIGURATION_DOCS =
  'docs/architecture.md, "Configuration", says which page describes each variable';

/** A wrong or missing variable: thrown at start-up, before the process connects to anything. */
export class ConfigurationError extends Error {
  readonly type = 'ConfigurationError';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/**
 * The schema's variables from `env`, or a ConfigurationError listing every wrong one: its name, the rule it broke
 * (the schema's message), and what to do. Values are never quoted: some are secrets.
 */
export function parseEnvironment<S extends z.ZodType>(
  schema: S,
  env: Environment,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`);
  throw new ConfigurationError(
    `Invalid ${what} environment:\n  ${problems.join('\n  ')}\nSet or correct the variable(s) above and start again (${CONFIGURATION_DOCS}).`,
  );
}
