// DNS rebinding (SECURITY.md, "Local servers and DNS rebinding"): a web page on an attacker's domain can make the
// browser resolve that domain to 127.0.0.1 and then call a local server from the page's own origin, so the
// same-origin policy lets it read the answers. The browser still sends the attacker's name in `Host`. A server
// that answers only its own names refuses such a request before it reads anything.
//
// Which names a local server's own: IP literals (a rebinding page always uses a DNS name it controls), `localhost`
// and `*.localhost` (browsers resolve them to loopback themselves, RFC 6761 §6.3, never through DNS), and the names
// the operator lists. Anything else is answered 421 Misdirected Request. Single-label names too, unless listed: a
// public domain has a dot, but a dotless name is resolved by the search domain, LLMNR or mDNS, which anyone on the
// same network can answer (`http://wpad/`, `http://intranet/`), so a page there rebinds like any other. A
// container's service name (compose's `sandbox`) is listed where it is used (SANDBOX_HOSTS).

/** The names a server answers, beyond the built-in ones. */
export interface HostCheckOptions {
  /** Extra DNS names (lower case, no port), e.g. a reverse proxy's `codec.internal.example`. */
  allowedHosts?: readonly string[];
}

/** `Host: name[:port]` → name, lower case, without a trailing dot or IPv6 brackets; undefined when malformed. */
function hostName(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return undefined;
    const rest = value.slice(end + 1);
    return rest === '' || /^:\d{1,5}$/.test(rest) ? value.slice(1, end) : undefined;
  }
  const match = /^([^:]+)(?::\d{1,5})?$/.exec(value);
  return match ? match[1]!.replace(/\.$/, '') : undefined;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9a-f:.]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether a request with this `Host` header is for this server (see the file comment). No header: refused. */
export function isOwnHost(header: string | undefined, options: HostCheckOptions = {}): boolean {
  if (header === undefined) return false;
  const name = hostName(header);
  if (!name) return false;
  if (IPV4.test(name) || (name.includes(':') && IPV6.test(name))) return true;
  if (name === 'localhost' || (name.endsWith('.localhost') && name.split('.').every((l) => LABEL.test(l))))
    return true;
  return (options.allowedHosts ?? []).some((allowed) => allowed.toLowerCase().replace(/\.$/, '') === name);
}

/** The answer body for a refused Host (names nothing of the request). */
export const MISDIRECTED = {
  status: 421,
  message:
    'this server answers its own host names only (DNS rebinding protection); add the name to the allowed hosts if you reach it through a proxy',
} as const;
