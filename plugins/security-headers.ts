import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Browser protections on every response. Production pages get a CSP allowing scripts from this
 * origin only, no inline script at all: the page's state travels as a non-executing
 * `<script type="application/json">` (decision 0013), so a cached page is complete as stored.
 * Vite's dev server injects inline scripts, so dev runs without CSP.
 */
export default fp(
  async (app) => {
    const iconApi = new URL(app.config.iconUpstreamUrl).origin;
    const csp = !app.config.dev;
    await app.register(helmet, {
      contentSecurityPolicy: csp
        ? {
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
