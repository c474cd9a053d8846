import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Browser protections on every response. Production pages get a nonce-based CSP: the only
 * inline script is the hydration data, which carries the nonce. Vite's dev server injects its
 * own inline scripts, so dev runs without CSP.
 */
export default fp(
  async (app) => {
    const iconApi = new URL(app.config.iconUpstreamUrl).origin;
    await app.register(helmet, {
      enableCSPNonces: !app.config.dev,
      contentSecurityPolicy: app.config.dev
        ? false
        : {
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'"],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:'],
              // Icons fall back to the public Iconify API in the browser when our endpoint fails.
              connectSrc: ["'self'", iconApi],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              baseUri: ["'self'"],
              objectSrc: ["'none'"],
              upgradeInsecureRequests: null,
            },
          },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: app.config.publicUrl.startsWith('https://'),
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
