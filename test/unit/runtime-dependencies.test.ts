// Supply chain, offline (npm audit's advisory service is not reachable from CI): the runtime dependency tree —
// what `npm install xborder` brings without dev dependencies — is read from package-lock.json; its size may not grow
// past the recorded number and every licence must be on the allow-list. A change to either is a decision: justify it
// in docs/dependencies.md and move the number here in the same commit.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<
    string,
    { version?: string; license?: string; dev?: boolean; devOptional?: boolean; link?: boolean }
  >;
};
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Packages in the runtime tree on 2026-11-25 (non-dev entries of package-lock.json). Raise only with a reason in docs/dependencies.md. */
const RECORDED_RUNTIME_PACKAGES = 88;
/** Permissive licences only: nothing that obliges us to publish our code or restricts use. */
const ALLOWED_LICENCES = new Set(['MIT', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD']);

const runtime = Object.entries(lock.packages).filter(
  ([key, entry]) => key !== '' && !entry.dev && !entry.devOptional && !entry.link,
);

it('reads a lockfile that marks dev packages (lockfile v2 or v3)', () => {
  expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2);
  for (const name of Object.keys(pkg.dependencies))
    expect({ name, inTree: runtime.some(([key]) => key === `node_modules/${name}`) }).toEqual({
      name,
      inTree: true,
    });
});

it(`keeps the runtime tree at or under ${RECORDED_RUNTIME_PACKAGES} packages`, () => {
  expect(runtime.length).toBeLessThanOrEqual(RECORDED_RUNTIME_PACKAGES);
});

it('has a permissive licence on every runtime package', () => {
  const offending = runtime
    .filter(([, entry]) => !entry.license || !ALLOWED_LICENCES.has(entry.license))
    .map(([key, entry]) => `${key}@${entry.version}: ${entry.license ?? 'no licence'}`);
  expect(offending).toEqual([]);
});

it('justifies every direct runtime dependency in docs/dependencies.md', () => {
  const doc = readFileSync(path.join(ROOT, 'docs', 'dependencies.md'), 'utf8');
  for (const name of Object.keys(pkg.dependencies))
    expect({ name, documented: doc.includes(`\`${name}\``) }).toEqual({ name, documented: true });
});
