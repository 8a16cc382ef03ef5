// The payload keys of a CLI command. XBORDER_CODEC_KEYS(_FILE) (or XBORDER_CODEC=disabled) when set; else, in a
// dev checkout, the key `xborder dev` (npm start) generated into .data/codec-keys.json — found from the working
// directory upwards, so the CLI works right after `npm start` with nothing to export. No key at all is a
// configuration mistake (exit code 2), never "cannot connect": the message says which variables and where the
// dev stack keeps its key (docs/codec.md).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { codecDataConverter, dataConverterFromEnv } from '../codec/data-converter';
import { codecKeysFromEnv, parseCodecKeys, staticKeyProvider } from '../codec/keys';
import { UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

/** Where `xborder dev` keeps the stack's payload key, relative to the directory it runs in (its --data-dir). */
export const DEV_CODEC_KEYS_FILE = path.join('.data', 'codec-keys.json');

/** The nearest <dir>/.data/codec-keys.json from `from` upwards, or null. */
export function findDevCodecKeysFile(from: string): string | null {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEV_CODEC_KEYS_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

export function missingCodecKeysMessage(cwd: string): string {
  return (
    'no payload encryption keys: set XBORDER_CODEC_KEYS (the keys JSON) or XBORDER_CODEC_KEYS_FILE (a file holding it; ' +
    'docs/codec.md). The local dev stack (`npm start`) keeps its key in .data/codec-keys.json of the checkout it runs in: ' +
    `export XBORDER_CODEC_KEYS_FILE=<checkout>/${DEV_CODEC_KEYS_FILE} (none found from ${cwd} upwards)`
  );
}

export interface CliCodec {
  dataConverter: DataConverter;
  /** where the keys came from: XBORDER_CODEC_KEYS, a file path, or 'disabled' */
  source: string;
}

/** The CLI's data converter; UsageError (exit code 2) when there are no keys or they are malformed. */
export function cliDataConverter(env: Environment, cwd: string): CliCodec {
  try {
    const fromEnv = codecKeysFromEnv(env);
    if (fromEnv.kind === 'disabled') return { dataConverter: dataConverterFromEnv(env), source: 'disabled' };
    if (fromEnv.kind === 'keys') return { dataConverter: dataConverterFromEnv(env), source: fromEnv.source };
    const file = findDevCodecKeysFile(cwd);
    if (!file) throw new UsageError(missingCodecKeysMessage(cwd));
    const keys = parseCodecKeys(readFileSync(file, 'utf8'), file);
    return { dataConverter: codecDataConverter(staticKeyProvider(keys)), source: file };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // malformed JSON, an unreadable file: the configuration is wrong, the network is not to blame
    throw new UsageError(
      `payload encryption keys: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
