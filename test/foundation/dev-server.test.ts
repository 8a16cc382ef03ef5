import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureDevServer } from '../../src/cli/dev-server';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { freePort } from '../support/ports';

describe('ensureDevServer (the dev server of npm start)', () => {
  it('starts a persisted dev server with our search attributes, reuses it on a second call, and stops it', async () => {
    const port = await freePort();
    const uiPort = await freePort();
    const dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-dev-')), 'temporal.db');
    const first = await ensureDevServer({ port, uiPort, dbFile });
    try {
      expect(first.reused).toBe(false);
      const second = await ensureDevServer({ port, uiPort, dbFile });
      expect(second.reused).toBe(true);
      await second.stop(); // a reused server is not ours to stop

      const connection = await Connection.connect({ address: first.address });
      const { customAttributes } = await connection.operatorService.listSearchAttributes({
        namespace: 'default',
      });
      await connection.close();
      for (const key of ALL_SEARCH_ATTRIBUTE_KEYS)
        expect(Object.keys(customAttributes ?? {})).toContain(key.name);

      const ui = await fetch(first.uiUrl);
      expect(ui.status).toBe(200);
    } finally {
      await first.stop();
    }
    const afterStop = await fetch(`http://127.0.0.1:${port}`).then(
      () => 'up',
      () => 'down',
    );
    expect(afterStop).toBe('down');
  }, 90_000);
});
