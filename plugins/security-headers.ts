import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets the headers on a reply that no hook sees (an address the router could not read). */
    securityHeaders(reply: FastifyReply): void;
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
  },
  { name: 'security-headers', dependencies: ['config'] },
);
