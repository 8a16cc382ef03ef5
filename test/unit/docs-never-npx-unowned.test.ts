// The docs never send a user to `npx <name>` for a name this project does not own: outside a project that has the
// package installed, npx fetches and runs whatever the public registry holds under that name (`xborder` is not
// ours there; package.json is private).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
/** Tools we run through npx that are dev dependencies of this repository (npx runs the installed copy). */
const INSTALLED = new Set(
  Object.keys(
    (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies,
  ),
);
const BIN_OF_DEPENDENCY: Record<string, string> = {
  tsc: 'typescript',
  tsx: 'tsx',
  jest: 'jest',
  eslint: 'eslint',
  prettier: 'prettier',
  'playwright-core': 'playwright-core',
  autocannon: 'autocannon',
  esbuild: 'esbuild',
};

function markdownFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', 'SECURITY.md', 'temporal-docker/README.md', ...docs].filter((f) => {
    try {
      readFileSync(path.join(ROOT, f));
      return true;
    } catch {
      return false;
    }
  });
}

it('every `npx <tool>` in the docs names a tool installed as a dev dependency, never xborder', () => {
  const offending: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    // commands only: inline code (`npx …`) and lines of code blocks (npx … at the start, maybe after `$ ` or `&& `)
    for (const m of text.matchAll(/(?:`|^\s*(?:\$\s+)?|&&\s+)npx\s+(?:--?[\w-]+\s+)*([@\w./-]+)/gm)) {
      const tool = m[1]!;
      const dependency = BIN_OF_DEPENDENCY[tool] ?? tool;
      if (!INSTALLED.has(dependency)) offending.push(`${file}: npx ${tool}`);
    }
  }
  expect(offending).toEqual([]);
});
