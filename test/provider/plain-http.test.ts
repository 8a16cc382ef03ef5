// The API key goes in a header on every request (spec: Authentication 1): a plain http:// base URL is only taken
// for this machine's loopback, or with the explicit opt-in for a private network (compose's sandbox).
import { createProviderClient } from '../../src/provider';
import { isLoopbackHost, resolveApiBase } from '../../src/provider/environments';

describe('provider base URL and cleartext', () => {
  it('refuses http:// to any host that is not loopback, naming the risk', () => {
    // *.localhost too: Node resolves it through getaddrinfo, which may ask a DNS server (src/provider/environments.ts)
    for (const url of [
      'http://api.payments.example.com',
      'http://10.0.0.5:4010',
      'http://sandbox:4010',
      'http://[2001:db8::1]:4010',
      'http://127.example.com',
      'http://localhost.example.com',
      'http://sandbox.localhost:4010',
      'http://a.b.localhost',
    ]) {
      expect(() => createProviderClient({ baseUrl: url, apiKey: 'k' })).toThrow(/cleartext.*https.*loopback/);
    }
  });

  it('takes https:// anywhere and http:// to 127.0.0.0/8, ::1 and localhost', () => {
    for (const url of [
      'https://api.payments.example.com',
      'http://127.0.0.1:4010',
      'http://127.1.2.3:4010',
      'http://[::1]:4010',
      'http://localhost:4010',
      'http://LOCALHOST:4010',
    ]) {
      expect(() => createProviderClient({ baseUrl: url, apiKey: 'k' })).not.toThrow();
    }
  });

  it('takes http:// to another host only with allowPlainHttp', () => {
    expect(resolveApiBase({ baseUrl: 'http://sandbox:4010', allowPlainHttp: true })).toBe(
      'http://sandbox:4010/v1',
    );
  });

  it('knows loopback hosts by name and address', () => {
    expect(['localhost', '127.0.0.1', '127.255.255.254', '[::1]', 'LOCALHOST'].every(isLoopbackHost)).toBe(
      true,
    );
    expect(
      ['128.0.0.1', '::1', '[::2]', 'example.com', '0.0.0.0', '127.0.0.1.nip.io'].some(isLoopbackHost),
    ).toBe(false);
  });
});
