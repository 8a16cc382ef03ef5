// Base addresses of the service. spec: What the service does 8 (sandbox and production each have their own
// base address, not shown) and Versioning 1 (path prefix /v1).
// The hostnames below are PLACEHOLDERS under the reserved .invalid TLD: they resolve nowhere on purpose.
// Replace them with the real addresses when the provider gives them (docs/spec-gaps.md, "Provider client").

export const ENVIRONMENTS = {
  sandbox: 'https://sandbox.payments.example.invalid',
  production: 'https://api.payments.example.invalid',
} as const;
export type EnvironmentName = keyof typeof ENVIRONMENTS;

export const API_PREFIX = '/v1';

/**
 * The URL every request path is appended to: `{base_url}/v1`. A base URL that already ends in /v1 is kept as is.
 * Exactly one of baseUrl / environment must be given.
 */
export function resolveApiBase(opts: {
  baseUrl?: string;
  environment?: EnvironmentName;
  allowPlainHttp?: boolean;
}): string {
  if (opts.baseUrl !== undefined && opts.environment !== undefined) {
    throw new TypeError('createProviderClient: give either baseUrl or environment, not both');
  }
  let base: string;
  if (opts.baseUrl !== undefined) {
    base = opts.baseUrl;
  } else if (opts.environment !== undefined) {
    if (!Object.prototype.hasOwnProperty.call(ENVIRONMENTS, opts.environment)) {
      throw new TypeError(
        `createProviderClient: unknown environment "${String(opts.environment)}" (sandbox | production)`,
      );
    }
    base = ENVIRONMENTS[opts.environment];
  } else {
    throw new TypeError('createProviderClient: baseUrl or environment is required');
  }
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(`createProviderClient: baseUrl is not a URL: ${base}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createProviderClient: baseUrl must be http(s): ${base}`);
  }
  // The API key travels in a header on every request (spec: Authentication 1): over plain http anyone on the path
  // reads it. Only this machine's own loopback is exempt (the sandbox in development), or an explicit opt-in for a
  // private network such as the compose stack's (`allowPlainHttp`, XBORDER_PROVIDER_ALLOW_HTTP=1).
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && opts.allowPlainHttp !== true) {
    throw new TypeError(
      `createProviderClient: baseUrl ${url.origin} is plain http to a host that is not this machine: the API key would cross the network in cleartext. Use https, or http only to a loopback host (127.0.0.0/8, ::1, localhost)`,
    );
  }
  if (url.username || url.password) {
    throw new TypeError('createProviderClient: baseUrl must not carry credentials; pass apiKey instead');
  }
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(API_PREFIX) ? path : path + API_PREFIX;
  return url.toString().replace(/\/+$/, '');
}

/**
 * 127.0.0.0/8, ::1 and `localhost`. `URL.hostname` keeps IPv6 in brackets. Not `*.localhost`: RFC 6761 asks
 * resolvers to answer loopback for them, but Node asks the system's getaddrinfo, and glibc without
 * nss-myhostname/systemd-resolved sends `sandbox.localhost` to the DNS server, whose answer can be any address:
 * the API key would then cross the network in cleartext. `localhost` itself is in /etc/hosts.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
