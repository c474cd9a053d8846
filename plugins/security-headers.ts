import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

const nonceKey = Symbol('scriptNonce');
type WithNonce = ServerResponse & { [nonceKey]?: string };

/** The nonce the page's one inline script (the hydration data) must carry under the CSP. */
export function scriptNonce(reply: FastifyReply): string | undefined {
  return (reply.raw as WithNonce)[nonceKey];
}

/**
 * Browser protections on every response. Production pages get a nonce-based script CSP.
 * Only scripts get a nonce: a nonce in style-src would switch off 'unsafe-inline' for the
 * style attributes React writes. Vite's dev server injects inline scripts, so dev runs without CSP.
 */
export default fp(
  async (app) => {
    const iconApi = new URL(app.config.iconUpstreamUrl).origin;
    const csp = !app.config.dev;
    if (csp) {
      app.addHook('onRequest', async (_request, reply) => {
        (reply.raw as WithNonce)[nonceKey] = randomBytes(16).toString('base64');
      });
    }
    await app.register(helmet, {
      contentSecurityPolicy: csp
        ? {
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as WithNonce)[nonceKey]}'`],
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
          }
        : false,
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: app.config.publicUrl.startsWith('https://'),
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
