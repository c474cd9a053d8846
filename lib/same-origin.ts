import type { FastifyRequest } from 'fastify';

/**
 * Cross-site request forgery guard for form posts: the browser's Origin (or, failing that,
 * Referer) must be this site: PUBLIC_URL, or the host the request was addressed to, with its port
 * (behind a proxy on :8443 the browser says `https://site:8443`). SameSite=Lax cookies already stop
 * most forged posts; this stops the rest.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: string, behindProxy: boolean): boolean {
  const claimed = normalOrigin(request.headers.origin ?? originOf(request.headers.referer));
  if (!claimed) return false;
  return claimed === normalOrigin(publicUrl) || addressedOrigins(request, behindProxy).includes(claimed);
}

/**
 * `request.host` is the Host header, or X-Forwarded-Host from a trusted proxy, port included.
 * A proxy that forwards the host without its port (nginx's `$host`) can name it in
 * X-Forwarded-Port. A forged forwarded header cannot help a forgery: a page on another site
 * cannot add headers to a form post, only a client posting on its own behalf can.
 */
function addressedOrigins(request: FastifyRequest, behindProxy: boolean): string[] {
  const origins = [normalOrigin(`${request.protocol}://${request.host}`)];
  const forwardedPort = behindProxy ? lastHeaderEntry(request.headers['x-forwarded-port']) : undefined;
  if (forwardedPort && /^\d{1,5}$/.test(forwardedPort) && request.port === null) {
    origins.push(normalOrigin(`${request.protocol}://${request.hostname}:${forwardedPort}`));
  }
  return origins.filter((origin): origin is string => origin !== undefined);
}

/** `https://site:443` and `https://site` are one origin; browsers send the latter. */
function normalOrigin(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

function lastHeaderEntry(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined?.split(',').at(-1)?.trim() || undefined;
}

export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
