import type { onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The last word on what caches may keep, whatever route answered: an answer that sets a cookie is
 * kept by nobody, and one a CDN or the proxy might keep (`public`) is kept only as a 200 or 304,
 * never as an error a render turned into (decision 0044).
 */
const finalCacheControl: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.hasHeader('set-cookie')) reply.header('cache-control', 'private, no-store');
  else if (reply.statusCode !== 200 && reply.statusCode !== 304) {
    const control = reply.getHeader('cache-control');
    if (typeof control === 'string' && control.startsWith('public')) reply.header('cache-control', 'no-cache');
  }
  done(null, payload);
};

export default fp(
  async (app) => {
    app.addHook('onSend', finalCacheControl);
  },
  { name: 'cache-headers' },
);
