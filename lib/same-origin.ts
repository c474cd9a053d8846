import type { FastifyRequest } from 'fastify';

/**
 * CSRF guard for form posts, beside SameSite=Lax cookies: the Origin (else Referer) must be
 * PUBLIC_URL's or the host the request was addressed to, port included.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: string, behindProxy: boolean): boolean {
  const claimed = normalOrigin(request.headers.origin ?? originOf(request.headers.referer));
  if (!claimed) return false;
  return claimed === normalOrigin(publicUrl) || addressedOrigins(request, behindProxy).includes(claimed);
}

/**
 * A proxy that forwards the host without its port (nginx's `$host`) can name it in
 * X-Forwarded-Port. Forged headers cannot help a forgery: another site's page cannot set them.
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
