import type { FastifyInstance } from 'fastify';

// Which methods a path answers to, so an unknown method on a known path gets 405 with Allow
// (DESIGN.md section 5) instead of fastify's 404. Route patterns are compiled to regexes once, as
// routes are registered.

interface IndexedRoute {
  pattern: RegExp;
  methods: Set<string>;
}

export class RouteIndex {
  readonly #routes = new Map<string, IndexedRoute>();

  add(url: string, methods: string | string[]): void {
    let route = this.#routes.get(url);
    if (!route) {
      route = { pattern: compile(url), methods: new Set() };
      this.#routes.set(url, route);
    }
    for (const method of [methods].flat()) route.methods.add(method.toUpperCase());
  }

  /** Methods registered for any route matching `path`, sorted; empty when no route matches. */
  allowedMethods(path: string): string[] {
    const allowed = new Set<string>();
    for (const route of this.#routes.values()) {
      if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
    }
    return [...allowed].sort();
  }

  /** Watches `app` so every route registered afterwards is indexed. */
  static attach(app: FastifyInstance): RouteIndex {
    const index = new RouteIndex();
    app.addHook('onRoute', (route) => index.add(route.url, route.method));
    return index;
  }
}

function compile(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}
