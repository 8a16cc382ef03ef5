// Secrets through files: every variable that holds a secret may instead be given as `<NAME>_FILE`, the path of a
// file holding it (a Docker or Kubernetes secret mounted read-only), so the secret is not in the process's
// environment, `docker inspect` or a compose file. Exactly one of the two; the error names the variable and the
// path, never the content. Read once at start, by the entry that reads its environment.
import { readFileSync } from 'node:fs';
import { ConfigurationError, type Environment } from './environment';

/** `env` with each `<NAME>` of `names` taken from the file `<NAME>_FILE` names, when that is set. */
export function withSecretFiles(env: Environment, names: readonly string[], who: string): Environment {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) throw new ConfigurationError(`${who}: set ${name} or ${name}_FILE, not both`);
    let value: string;
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new ConfigurationError(
        `${who}: ${name}_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): ${file}`,
      );
    }
    if (!value) throw new ConfigurationError(`${who}: ${name}_FILE is empty: ${file}`);
    out[name] = value;
  }
  return out;
}
