import compress from '@fastify/compress';
import fp from 'fastify-plugin';
import { compressibleType, compressionThresholdBytes, contentEncodings, varyWithAcceptEncoding } from '../lib/encoding.ts';

/**
 * Compression of text answers (HTML, JSON, CSS, JavaScript, SVG) by Accept-Encoding: brotli or
 * gzip (@fastify/compress, brotli at its quality 4 per response), nothing under 1 KB. Answers that
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

    // @fastify/compress says `Vary: Accept-Encoding` only when it compresses; the identity answer
    // to a client without brotli or gzip must say it too, or a shared cache could hand that
    // uncompressed copy to everyone (or a compressed one to that client).
    // A synchronous callback hook: an async one would make every send asynchronous (see plugins/page-cache.ts).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return done(null, payload);
      if (!compressibleType.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      const size = typeof payload === 'string' || Buffer.isBuffer(payload) ? Buffer.byteLength(payload) : Infinity;
      if (size >= compressionThresholdBytes) reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary') as string | undefined));
      done(null, payload);
    });
  },
  { name: 'compression' },
);
