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
  /** Creating calls require X-Idempotency-Key (spec: Authentication 3). */
  idempotent?: boolean;
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

  /** Returns the best match for method and path, or `'method-not-allowed'` when only the method differs. */
  match(method: string, path: string): RouteMatch | 'method-not-allowed' | null {
    const parts = split(path);
    let best: { match: RouteMatch; score: number } | null = null;
    let pathMatched = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== method) continue;
      const score = route.segments.filter((s) => !s.startsWith(':')).length;
      if (!best || score > best.score) best = { match: { route, params }, score };
    }
    if (best) return best.match;
    return pathMatched ? 'method-not-allowed' : null;
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
