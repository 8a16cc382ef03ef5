import { type IncomingMessage } from 'node:http';

/** What a route handler receives. `body` is the parsed JSON body (undefined for GET). */
export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  req: IncomingMessage;
  requestId: string;
  apiKey: string | null;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface RouteOptions {
  /**
   * Creating calls require X-Idempotency-Key (spec: Authentication 3): `true`. `'optional'`: a key sent is
   * honoured (replay / 409 as for creating calls), none is required.
   */
  idempotent?: boolean | 'optional';
}

export interface Route extends RouteOptions {
  method: string;
  template: string;
  segments: string[];
  handler: Handler;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** A tiny router: literal segments beat `:param` segments, so `/payments/corridors` wins over `/payments/:id`. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, template: string, handler: Handler, options: RouteOptions = {}): this {
    this.routes.push({ method, template, segments: split(template), handler, ...options });
    return this;
  }

  get(template: string, handler: Handler, options?: RouteOptions): this {
    return this.add('GET', template, handler, options);
  }

  post(template: string, handler: Handler, options?: RouteOptions): this {
    return this.add('POST', template, handler, options);
  }

  delete(template: string, handler: Handler, options?: RouteOptions): this {
    return this.add('DELETE', template, handler, options);
  }

  list(): readonly Route[] {
    return this.routes;
  }

  /**
   * Returns the best match for method and path; `{ allow }` (the methods the path does take, for the 405's
   * `Allow` header, RFC 9110 §15.5.6) when only the method differs; null when no route has this path.
   * HEAD is answered by the GET route (RFC 9110 §9.3.2: same headers, no body).
   */
  match(method: string, path: string): RouteMatch | { allow: string[] } | null {
    const parts = split(path);
    const wanted = method === 'HEAD' ? 'GET' : method;
    let best: { match: RouteMatch; score: number } | null = null;
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      allow.add(route.method);
      if (route.method !== wanted) continue;
      const score = route.segments.filter((s) => !s.startsWith(':')).length;
      if (!best || score > best.score) best = { match: { route, params }, score };
    }
    if (best) return best.match;
    if (allow.size === 0) return null;
    if (allow.has('GET')) allow.add('HEAD');
    return { allow: [...allow].sort() };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | null {
  if (template.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    const p = parts[i]!;
    if (t.startsWith(':')) {
      try {
        params[t.slice(1)] = decodeURIComponent(p);
      } catch {
        return null;
      }
    } else if (t !== p) return null;
  }
  return params;
}
