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
 * Compression of text answers (HTML, JSON, CSS, JavaScript, SVG) by Accept-Encoding: brotli or
 * gzip, at their fastest per response, nothing under 1 KB: whole bodies in one call here
 * (lib/encoding.ts), streams by @fastify/compress. Answers that
 * arrive already encoded are left alone: the page cache's stored variants (plugins/page-cache.ts)
 * and the build's pre-compressed assets (`.br`/`.gz` next to each file, served by @fastify/static).
 * Registered before every route: @fastify/compress attaches itself to the routes added after it.
 */
export default fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      encodings: [...contentEncodings],
      threshold: compressionThresholdBytes,
      customTypes: compressibleType,
    });

    // Whole bodies (pages rendered per request, JSON) are compressed here in one call; streams
    // (files without a pre-compressed copy) are left to @fastify/compress, whose route-level hook
    // runs after this one and leaves an answer that already has a Content-Encoding alone.
    // @fastify/compress says `Vary: Accept-Encoding` only when it compresses; the identity answer
    // to a client without brotli or gzip must say it too, or a shared cache could hand that
    // uncompressed copy to everyone (or a compressed one to that client).
    // A route-level hook, placed first among the route's own: after every application-level
    // onSend (the page cache stores the identity body, then answers with its own stored variant).
    // A synchronous callback hook: an async one would make every send asynchronous (see
    // plugins/page-cache.ts).
    const compressWhole: onSendHookHandler = (request, reply, payload, done) => {
      if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return done(null, payload);
      if (!compressibleType.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      // A string body is encoded once here: its length, the compressor and the socket all need bytes.
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
