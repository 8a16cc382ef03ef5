#!/usr/bin/env node
// The `xborder` command. Runs the compiled CLI (npm run build) when present, else the TypeScript sources via tsx.
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  require('tsx/cjs');
  require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
}
