#!/usr/bin/env node
// The `xborder` command. In a checkout (sources present, tsx installed) it runs the TypeScript sources via tsx,
// so an old `npm run build` in dist/ is never run by mistake; in an installed package (only dist/ and production
// dependencies: no tsx) or with XBORDER_USE_DIST=1, the compiled CLI.
const path = require('node:path');
const fs = require('node:fs');

const sources = path.join(__dirname, '..', 'src', 'cli', 'main.ts');
const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');

function canResolve(id) {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}

if (fs.existsSync(sources) && process.env.XBORDER_USE_DIST !== '1' && canResolve('tsx/cjs/api')) {
  // Both loaders: require() of .ts files, and the dynamic import() of the subcommand modules.
  require('tsx/cjs/api').register();
  require('tsx/esm/api').register();
  require(sources);
} else if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  console.error(
    'xborder: neither the sources with tsx nor a build in dist/ are here: run `npm install` or `npm run build`',
  );
  process.exitCode = 2;
}
