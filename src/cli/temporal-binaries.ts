import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../support/package-root';

const ROOT = packageRoot();
const PATHS_FILE = path.join(ROOT, '.tools', 'temporal-paths.json');

const PathsSchema = z.object({ cli: z.string().nullable(), testServer: z.string().nullable() });
export type TemporalBinaries = z.infer<typeof PathsSchema>;

let cached: TemporalBinaries | undefined;

/**
 * Paths of the Temporal CLI and the time-skipping test server, as found or installed by
 * scripts/ensure-temporal.sh (run here if it has not run yet). null means "let the SDK download it".
 */
export function temporalBinaries(): TemporalBinaries {
  if (cached) return cached;
  if (!existsSync(PATHS_FILE)) {
    execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-temporal.sh')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  cached = PathsSchema.parse(JSON.parse(readFileSync(PATHS_FILE, 'utf8')));
  return cached;
}
