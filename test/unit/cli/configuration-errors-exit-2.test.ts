// A process entry given a bad configuration exits 2, as the exit-code table says (docs/operations.md, "The `xborder`
// command": "2 usage: … bad Temporal settings, no or bad payload keys …"), never 1 ("the command failed"): a
// deploy script tells a configuration mistake from a failure by it. Found in the backend team's walk.
import { randomBytes } from 'node:crypto';
import { main } from '../../../src/cli/cli';

describe('a configuration mistake exits 2, naming what to fix', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => stderr.mockRestore());

  it('xborder worker with no provider URL', async () => {
    await expect(main(['worker'], { XBORDER_CODEC: 'disabled' })).resolves.toBe(2);
    expect(String(stderr.mock.calls.flat().join('\n'))).toMatch(/XBORDER_PROVIDER_URL/);
  });

  it('xborder worker with outbound events that have no signing secret', async () => {
    const env = {
      XBORDER_PROVIDER_URL: 'https://payments.example.com',
      // made here, never a value committed (the known-secret scan refuses those)
      XBORDER_PROVIDER_API_KEY: `sk_${randomBytes(16).toString('hex')}`,
      XBORDER_EVENTS_URL: 'https://shop.example.com/xborder-events',
    };
    await expect(main(['worker'], env)).resolves.toBe(2);
    expect(String(stderr.mock.calls.flat().join('\n'))).toMatch(/XBORDER_EVENTS_SECRETS/);
  });
});
