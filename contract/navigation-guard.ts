/**
 * The one place that decides where `navigateTo(to, options)` may go, on the
 * client and on the server render (302 Location).
 *
 * Decisions (see also the unit tests, which list every case):
 *
 * 1. Script protocols (`javascript:`, `data:`, `blob:`, `vbscript:`) are refused
 *    first and always, whatever `external` says. The check looks at several
 *    "views" of the input and refuses if ANY of them starts with a script scheme:
 *    - what the WHATWG URL parser sees (`new URL(to, base).protocol`), after it
 *      strips leading/trailing C0 controls and spaces and every tab/CR/LF;
 *    - the same, after peeling any number of `view-source:` prefixes;
 *    - a deliberately paranoid view: HTML character references decoded
 *      (`&#106;`, `&#x6A`, `&colon;`, `&Tab;` ... repeatedly, so `&amp;#106;` too),
 *      percent-escapes decoded, NFKC-normalised (full-width letters), and every
 *      control, whitespace and zero-width character removed anywhere.
 *    The paranoid view refuses strings that a JS `location.href = ...` would not
 *    execute (for example `&#106;avascript:` or `java%09script:`), because the
 *    same string may later land in an HTML attribute (a `<meta refresh>`, an
 *    `href`) where entities ARE decoded. Nothing legitimate looks like that.
 * 2. External means: the input (as the URL parser sees it) has any scheme
 *    (`http:`, `mailto:`, `HTTP:`, and also one-letter schemes such as `c:/x`,
 *    which the WHATWG parser treats as a scheme), or starts with two slashes in
 *    any mix of `/` and `\` (`//host`, `/\host`, `\\host`, `\/host`, also when a
 *    tab/newline/control character hides between or before them, `/\t/host`).
 *    Absolute inputs are parsed WITHOUT a base so the result never depends on
 *    the current page (`https:evil.com` is `https://evil.com/`, not a path).
 * 3. An external-looking http(s) URL whose origin equals `currentOrigin` simply
 *    becomes an internal path (with or without `external: true`).
 * 4. Otherwise, without `external: true`: refused (`external-not-allowed`).
 *    With `external: true`: only `http:`/`https:` URLs whose origin is in
 *    `allowedOrigins` (compared after URL normalisation: lower-case host,
 *    default port dropped) are allowed. `mailto:` and `tel:` have no origin, so
 *    they are allowed only when `allowedOrigins` lists the bare scheme
 *    (`'mailto:'`, `'tel:'`). Every other scheme (ftp:, file:, intent:,
 *    view-source:https:, ...) is refused (`origin-not-allowed`). URLs with
 *    embedded credentials (`https://user:pw@allowed.example`) are refused
 *    (`invalid-url`).
 * 5. Internal results are `pathname + search + hash` from the URL parser
 *    (percent-encoded, dot segments resolved, already-encoded sequences kept),
 *    with leading slashes collapsed to one so `/.//evil.com` (which the parser
 *    turns into the pathname `//evil.com`) can never become protocol-relative.
 *    `%2F` and `%5C` stay encoded: browsers never treat them as separators,
 *    so `/%2F/evil` is the literal same-origin path `/%2F/evil`.
 * 6. Relative inputs (`asdas`, `./x`, `?page=2`, `#section`) resolve against
 *    `currentPath` (default `/`). The empty string means `/` (as in Nuxt).
 */

import { detectScriptProtocol, PROTOCOL_RELATIVE_RE, SCHEME_RE, whatwgView } from './url-views.ts';

export { detectScriptProtocol } from './url-views.ts';

export type NavigationRefusedReason =
  | 'external-not-allowed'
  | 'origin-not-allowed'
  | 'script-protocol'
  | 'invalid-url';

export class NavigationRefusedError extends Error {
  override readonly name = 'NavigationRefusedError';
  readonly reason: NavigationRefusedReason;
  /** For script-protocol refusals: the refused scheme, e.g. `javascript:`. */
  readonly protocol: string | undefined;

  constructor(reason: NavigationRefusedReason, message: string, protocol?: string) {
    super(message);
    this.reason = reason;
    this.protocol = protocol;
  }
}

export interface NavigationOptions {
  /** Opt in to leaving the site. Still limited to `allowedOrigins`. */
  external?: boolean;
  /** Origins (`https://play.example`) and bare schemes (`mailto:`, `tel:`) allowed for external navigation. */
  allowedOrigins: readonly string[];
  /** Origin of the site itself, e.g. `https://site.example` (`location.origin` in the browser). */
  currentOrigin: string;
  /** Path (with search) relative inputs resolve against. Default `/`. */
  currentPath?: string;
}

export type NavigationTarget =
  | { kind: 'internal'; path: string }
  | { kind: 'external'; url: string };


/** Inputs longer than this are refused as invalid (no legitimate navigation target is this long). */
const MAX_URL_LENGTH = 8192;

const MESSAGES = {
  external:
    'Navigating to an external URL is not allowed by default. Use navigateTo(url, { external: true }) with an allowed origin.',
  invalid: 'Cannot navigate to an invalid URL.',
  credentials: 'Cannot navigate to a URL with embedded credentials.',
} as const;

function scriptProtocolMessage(protocol: string): string {
  return `Cannot navigate to a URL with '${protocol}' protocol.`;
}

function originMessage(origin: string): string {
  return `Navigating to '${origin}' is not allowed: it is not on the list of allowed origins.`;
}

// ---------------------------------------------------------------------------
// What the browser strips before parsing

// WHATWG URL parser: remove leading and trailing C0 control or space, then every ASCII tab or newline.
// eslint-disable-next-line no-control-regex
function normaliseOrigin(origin: string): string | null {
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
}

function toInternalPath(url: URL): string {
  return url.pathname.replace(/^\/{2,}/, '/') + url.search + url.hash;
}

function allowedSet(allowedOrigins: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const entry of allowedOrigins) {
    const trimmed = entry.trim().toLowerCase();
    if (trimmed === 'mailto:' || trimmed === 'tel:') {
      set.add(trimmed);
      continue;
    }
    const origin = normaliseOrigin(entry);
    if (origin && origin !== 'null') set.add(origin);
  }
  return set;
}

/**
 * Decide where a navigation may go. Throws `NavigationRefusedError` when it may not.
 */
export function resolveNavigation(to: unknown, options: NavigationOptions): NavigationTarget {
  if (typeof to !== 'string' || to.length > MAX_URL_LENGTH) {
    throw new NavigationRefusedError('invalid-url', MESSAGES.invalid);
  }
  const currentOrigin = normaliseOrigin(options.currentOrigin);
  if (!currentOrigin || currentOrigin === 'null') {
    throw new TypeError(`resolveNavigation: currentOrigin must be an http(s) origin, got '${options.currentOrigin}'.`);
  }

  const script = detectScriptProtocol(to);
  if (script) {
    throw new NavigationRefusedError('script-protocol', scriptProtocolMessage(script), script);
  }

  const view = whatwgView(to) || '/';
  const hasScheme = SCHEME_RE.test(view);
  const protocolRelative = PROTOCOL_RELATIVE_RE.test(view);

  if (!hasScheme && !protocolRelative) {
    // currentPath comes from the page's own location; still reduce it to a path on our origin.
    const base = new URL(encodeRedirectLocation(options.currentPath ?? '/'), currentOrigin);
    let url: URL;
    try {
      url = new URL(view, base);
    } catch {
      throw new NavigationRefusedError('invalid-url', MESSAGES.invalid);
    }
    // A relative reference resolved against our own origin stays on it; if the parser
    // ever disagrees, treat it as external rather than trusting the string.
    if (url.origin === currentOrigin) {
      return { kind: 'internal', path: toInternalPath(url) };
    }
    return external(url, options);
  }

  let url: URL;
  try {
    url = protocolRelative ? new URL(view, currentOrigin) : new URL(view);
  } catch {
    throw new NavigationRefusedError('invalid-url', MESSAGES.invalid);
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === currentOrigin) {
    return { kind: 'internal', path: toInternalPath(url) };
  }
  return external(url, options);
}

function external(url: URL, options: NavigationOptions): NavigationTarget {
  if (!options.external) {
    throw new NavigationRefusedError('external-not-allowed', MESSAGES.external);
  }
  const allowed = allowedSet(options.allowedOrigins);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (!allowed.has(url.origin)) {
      throw new NavigationRefusedError('origin-not-allowed', originMessage(url.origin));
    }
    if (url.username || url.password) {
      throw new NavigationRefusedError('invalid-url', MESSAGES.credentials);
    }
    return { kind: 'external', url: url.href };
  }
  if ((url.protocol === 'mailto:' || url.protocol === 'tel:') && allowed.has(url.protocol)) {
    return { kind: 'external', url: url.href };
  }
  throw new NavigationRefusedError('origin-not-allowed', originMessage(url.protocol));
}

/**
 * For `?redirect=` values: an internal path (with search and hash) or `fallback`,
 * never an external URL. A same-origin absolute URL is accepted (as its path)
 * only when `currentOrigin` is given.
 */
export function safeRedirectPath(
  value: unknown,
  fallback = '/',
  currentOrigin = 'http://redirect.invalid',
): string {
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  try {
    const target = resolveNavigation(value, { allowedOrigins: [], currentOrigin, currentPath: '/' });
    return target.kind === 'internal' ? target.path : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The Location header value for an internal server-side redirect: percent-encoded
 * by the URL parser (no CR/LF/controls/spaces survive), leading slashes collapsed so
 * `//evil` or `/\evil` can never escape to another host. An absolute or
 * protocol-relative http(s) URL is reduced to its path on this site
 * (`//evil.com/x` -> `/x`); any other scheme gives `/`.
 * Values built with it are header-safe; escape them again for HTML attributes.
 */
export function encodeRedirectLocation(path: string): string {
  let url: URL;
  try {
    url = new URL(path, 'http://localhost');
  } catch {
    return '/';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '/';
  return toInternalPath(url);
}
