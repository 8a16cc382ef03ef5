// A JavaScript caller of connectClient that leaves out the data converter would send plaintext, which xborder's
// workers refuse: the payment would start, fail its first workflow task and keep its key, and startPayment would
// retry for minutes before saying "no answer". A new user's walk did exactly that. It is refused at once, saying what
// to pass, before any connection is made.
import { connectClient } from '../../../src/client/connect';

it('refuses to connect without a data converter, naming what to pass', async () => {
  // an address nothing listens on: the refusal comes before any connection is tried
  const config = { address: '127.0.0.1:1', namespace: 'default' } as never;
  await expect(connectClient(config, undefined as never)).rejects.toThrow(
    /no data converter given[\s\S]*connectClientFromEnv\(\)/,
  );
  await expect(connectClient(config, null as never)).rejects.toBeInstanceOf(TypeError);
});
