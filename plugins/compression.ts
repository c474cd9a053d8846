import compress from '@fastify/compress';
import type { onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import {
  compressibleType,
  compressionThresholdBytes,
  compressResponse,
  contentEncodings,
  negotiateEncoding,
  varyWithAcceptEncoding,
} from '../lib/encoding.ts';
import { utf8Bytes } from '../lib/utf8-bytes.ts';

/**
 * Whole bodies compressed here at the fastest level (decision 0018), streams by @fastify/compress.
 * Registered before every route: both attach to the routes added after them.
 */
export default fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      encodings: [...contentEncodings],
      threshold: compressionThresholdBytes,
      customTypes: compressibleType,
    });

    // First among the route's own onSend hooks, so after every application-level one (the page cache
    // stores the identity body); synchronous. The identity answer says `Vary: Accept-Encoding` too.
    const compressWhole: onSendHookHandler = (request, reply, payload, done) => {
      if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return done(null, payload);
      if (!compressibleType.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      // Encoded once: its length, the compressor and the socket all need bytes.
      const whole = typeof payload === 'string' ? utf8Bytes(payload) : Buffer.isBuffer(payload) ? payload : undefined;
      if (whole && whole.length < compressionThresholdBytes) return done(null, payload);
      reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary') as string | undefined));
      const encoding = negotiateEncoding(request.headers['accept-encoding']);
      if (!whole || encoding === 'identity' || request.method === 'HEAD') return done(null, whole ?? payload);
      const body = compressResponse(whole, encoding);
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    };
    app.addHook('onRoute', (route) => {
      route.onSend = [
        compressWhole,
        ...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]),
      ];
    });
  },
  { name: 'compression' },
);
