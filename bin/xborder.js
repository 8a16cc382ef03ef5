#!/usr/bin/env node
// The `xborder` command. In a checkout (sources present) it runs the TypeScript sources via tsx, so an old
// `npm run build` in dist/ is never run by mistake; where only dist/ exists (production images), the compiled CLI.
const path = require('node:path');
const fs = require('node:fs');

const sources = path.join(__dirname, '..', 'src', 'cli', 'main.ts');
const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (fs.existsSync(sources) && process.env.XBORDER_USE_DIST !== '1') {
  // Both loaders: require() of .ts files, and the dynamic import() of the subcommand modules.
  require('tsx/cjs/api').register();
  require('tsx/esm/api').register();
  require(sources);
} else {
  require(compiled);
}
