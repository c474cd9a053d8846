// What the bench loads: single routes (the default), the reader and account scenarios and the
// soak's mixed load. Add a route here to benchmark it.

export interface BenchRequest {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Send the bench user's `Authorization: Bearer` token (registered before the run). */
  authenticated?: boolean;
}

export interface BenchRoute extends BenchRequest {
  /** Short name for the table (defaults to the path). */
  name?: string;
  /** The status every answer should have (default 200). */
  status?: number;
  /** The constant page the others are compared with: a bench route (bench/baseline-routes.ts). */
  baseline?: boolean;
  /** Another of the bench's routes (absent from a server without them). */
  benchOnly?: boolean;
  /** A React floor row: the name of the page row whose bytes it renders (its "CPU x floor"). */
  floorOf?: string;
  /** Override --connections: CPU-bound routes (argon2) only queue up behind many connections. */
  connections?: number;
}

const browserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const pageHeaders = {
  'user-agent': browserAgent,
  accept: 'text/html,application/xhtml+xml',
  'accept-language': 'en',
};
const jsonHeaders = { 'user-agent': browserAgent, accept: 'application/json' };
const jsonBody = { ...jsonHeaders, 'content-type': 'application/json' };

export const article = '/asdas/rtp-explained';

/** Registered through the API before the run (an address unique to the run); login and `me` use it. */
export function benchUser(run: string) {
  return { email: `bench-${run}@example.com`, password: 'bench passphrase 2026', displayName: 'Bench' };
}

export function loginRequest(user: { email: string; password: string }): BenchRequest {
  return {
    path: '/api/auth/login',
    method: 'POST',
    headers: jsonBody,
    body: JSON.stringify({ email: user.email, password: user.password }),
  };
}

export const baselinePath = '/__bench/baseline';
/** A page's markup rendered by React as plain elements, per request: React's own floor for those bytes. */
function floorRoute(page: string, name = page): BenchRoute {
  return {
    name: `floor ${name}`,
    path: `/__bench/react-floor?path=${encodeURIComponent(page)}`,
    headers: pageHeaders,
    benchOnly: true,
    floorOf: name,
  };
}
export const processPath = '/__bench/process';

export function singleRoutes(user: { email: string; password: string }): BenchRoute[] {
  return [
    { name: 'baseline', path: baselinePath, headers: pageHeaders, baseline: true },
    floorRoute('/'),
    { path: '/', headers: pageHeaders },
    floorRoute('/th'),
    { path: '/th', headers: pageHeaders },
    floorRoute('/asdas'),
    { path: '/asdas', headers: pageHeaders },
    floorRoute(article, 'article'),
    { name: 'article', path: article, headers: pageHeaders },
    { name: '/th article', path: `/th${article}`, headers: pageHeaders },
    { name: 'author page', path: '/author/nicha-srisuk', headers: pageHeaders },
    { name: '404 page', path: '/no/such/page', status: 404, headers: pageHeaders },
    { name: '/login', path: '/login', headers: pageHeaders },
    { name: 'home payload', path: '/_payload.json', headers: jsonHeaders },
    { name: 'list payload', path: '/asdas/_payload.json', headers: jsonHeaders },
    { name: 'article payload', path: `${article}/_payload.json`, headers: jsonHeaders },
    { name: 'icons (local set)', path: '/api/_nuxt_icon/mdi.json?icons=home,account', headers: jsonHeaders },
    { name: 'GET /api/auth/me', path: '/api/auth/me', headers: jsonHeaders, authenticated: true },
    { name: 'POST /api/auth/login', ...loginRequest(user), connections: 8 },
    // Each request records a play session and a launch token (two inserts in a transaction) and signs it.
    {
      name: 'POST /api/play',
      path: '/api/play',
      method: 'POST',
      authenticated: true,
      headers: jsonBody,
      body: JSON.stringify({ locale: 'en' }),
    },
  ];
}

/** `--scenario reader`: a visitor's first load of three pages, then the client navigations' payloads. */
export const readerSteps: BenchRequest[] = [
  { path: '/', headers: pageHeaders },
  { path: '/asdas', headers: pageHeaders },
  { path: article, headers: pageHeaders },
  { path: '/_payload.json', headers: jsonHeaders },
  { path: '/asdas/_payload.json', headers: jsonHeaders },
  { path: `${article}/_payload.json`, headers: jsonHeaders },
];

/** `--soak`: pages, payloads, `me` and now and then a login, as a day's traffic mixes them. */
export function soakSteps(user: { email: string; password: string }): BenchRequest[] {
  return [
    { path: '/', headers: pageHeaders },
    { path: '/th', headers: pageHeaders },
    { path: article, headers: pageHeaders },
    { path: '/asdas/_payload.json', headers: jsonHeaders },
    { path: '/api/auth/me', headers: jsonHeaders, authenticated: true },
    { path: `/th${article}`, headers: pageHeaders },
    { path: `${article}/_payload.json`, headers: jsonHeaders },
    { path: '/asdas', headers: pageHeaders },
    { path: '/author/nicha-srisuk', headers: pageHeaders },
    { path: '/api/auth/me', headers: jsonHeaders, authenticated: true },
    loginRequest(user),
  ];
}

export const jsonBodyHeaders = jsonBody;
