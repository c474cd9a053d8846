import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { FixedHeaders } from '../../lib/page-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets the headers on a reply that no hook sees (an address the router could not read). */
    securityHeaders(reply: FastifyReply): void;
    /** The headers helmet sets on an answer to `request`, in its order and spelling (the page cache keeps them). */
    securityHeadersOf(request: FastifyRequest): FixedHeaders;
  }
}

/**
 * No inline script in production (decision 0013); Vite's dev server injects some, so dev runs
 * without CSP. helmet is configured once, not per request as @fastify/helmet does (decision 0024).
 */
export default fp(
  async (app) => {
    const iconApi = new URL(app.config.iconUpstreamUrl).origin;
    const protect = helmet({
      contentSecurityPolicy: app.config.dev
        ? false
        : {
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'"],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:'],
              // Web fonts are self-hosted (client/fonts.css): never another origin.
              fontSrc: ["'self'"],
              // Icons fall back to the public Iconify API in the browser when our endpoint fails.
              connectSrc: ["'self'", iconApi],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              baseUri: ["'self'"],
              objectSrc: ["'none'"],
              upgradeInsecureRequests: null,
            },
          },
      xFrameOptions: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: app.config.publicUrl.startsWith('https://'),
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onRequest', (request, reply, done) =>
      protect(request.raw, reply.raw, (error) => done(error as Error | undefined)),
    );
    app.decorate('securityHeaders', (reply: FastifyReply) => protect(reply.request.raw, reply.raw, () => {}));
    app.decorate('securityHeadersOf', (request: FastifyRequest) => {
      // helmet only sets and removes headers: a response that writes them down is enough.
      const headers = new Map<string, readonly [string, string]>();
      const recorder = {
        setHeader(name: string, value: unknown) {
          headers.set(name.toLowerCase(), [name, String(value)]);
        },
        removeHeader(name: string) {
          headers.delete(name.toLowerCase());
        },
      };
      protect(request.raw, recorder as unknown as ServerResponse<IncomingMessage>, () => {});
      return [...headers.values()];
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
