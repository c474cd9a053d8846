import type { FastifyRequest } from 'fastify';

/** Cookies are `Secure` whenever visitors use HTTPS: PUBLIC_URL says so even when the proxy is not believed. */
export function cookieSecurity(publicUrl: string): (request: FastifyRequest) => boolean {
  const publicHttps = publicUrl.startsWith('https:');
  return (request) => publicHttps || request.protocol === 'https';
}
