/**
 * Where `navigateTo` may go (cases: test/unit/navigation-guard.test.ts). Script schemes are refused
 * in every view url-views.ts makes: the string may later land in an attribute, where entities are
 * decoded. Any scheme or two leading slashes (`/` or `\`) is external and needs `external: true`
 * and a listed origin; internal paths get leading slashes collapsed.
 */

import { detectScriptProtocol, PROTOCOL_RELATIVE_RE, SCHEME_RE, whatwgView } from './url-views.ts';

export { detectScriptProtocol } from './url-views.ts';

export type NavigationRefusedReason = 'external-not-allowed' | 'origin-not-allowed' | 'script-protocol' | 'invalid-url';

export class NavigationRefusedError extends Error {
  override readonly name = 'NavigationRefusedError';
  readonly reason: NavigationRefusedReason;
  readonly protocol: string | undefined;

  constructor(reason: NavigationRefusedReason, message: string, protocol?: string) {
    super(message);
    this.reason = reason;
    this.protocol = protocol;
  }
}

export interface NavigationOptions {
  external?: boolean;
  /** Origins (`https://play.example`) and bare schemes (`mailto:`, `tel:`) allowed for external navigation. */
  allowedOrigins: readonly string[];
  currentOrigin: string;
  /** What relative inputs resolve against. Default `/`. */
  currentPath?: string;
}

export type NavigationTarget = { kind: 'internal'; path: string } | { kind: 'external'; url: string };

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
    const base = new URL(encodeRedirectLocation(options.currentPath ?? '/'), currentOrigin);
    let url: URL;
    try {
      url = new URL(view, base);
    } catch {
      throw new NavigationRefusedError('invalid-url', MESSAGES.invalid);
    }
    // Should the parser ever resolve a relative reference elsewhere, it is treated as external.
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

/** `?redirect=`: an internal path or `fallback`; a same-origin URL only given `currentOrigin`. */
export function safeRedirectPath(value: unknown, fallback = '/', currentOrigin = 'http://redirect.invalid'): string {
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  try {
    const target = resolveNavigation(value, { allowedOrigins: [], currentOrigin, currentPath: '/' });
    return target.kind === 'internal' ? target.path : fallback;
  } catch {
    return fallback;
  }
}

/** Percent-encoded and reduced to a path here: header-safe; escape it again for HTML attributes. */
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
