#!/usr/bin/env node
// The `xborder` command. Runs the compiled CLI (npm run build) when present, else the TypeScript sources via tsx.
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  // Both loaders: require() of .ts files, and the dynamic import() of the subcommand modules.
  require('tsx/cjs/api').register();
  require('tsx/esm/api').register();
  require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
}
