import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The root of the xborder package, from the sources (src/cli/) or compiled (dist/src/cli/), in a checkout
 * or installed under node_modules/xborder: the nearest directory up whose package.json is xborder's.
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'xborder')
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`xborder: no package.json of xborder above ${from}`);
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string })
    .version;
}
