import type { FastifyRequest } from 'fastify';

/**
 * Whether the cookies the site sets are `Secure`: whenever visitors use HTTPS. A PUBLIC_URL of
 * https says so even when the proxy's X-Forwarded-Proto is not believed (TRUST_PROXY unset, which
 * the configuration warns about), so no cookie is ever sent back over plain HTTP.
 */
export function cookieSecurity(publicUrl: string): (request: FastifyRequest) => boolean {
  const publicHttps = publicUrl.startsWith('https:');
  return (request) => publicHttps || request.protocol === 'https';
}
