import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';
import { compressibleType, compressionThresholdBytes, contentEncodings } from '../../lib/encoding.ts';

/** A page is at most a few hundred KB: compressed in one call, never through a stream (decision 0018). */
const wholeBodyBytes = 4 * 1024 * 1024;

/**
 * @fastify/compress at its fastest for bodies made per request (decision 0018); cached pages come
 * compressed already (lib/page-cache.ts). Registered before every route: it attaches to those added after it.
 */
export default fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      encodings: [...contentEncodings],
      threshold: compressionThresholdBytes,
      syncThreshold: wholeBodyBytes,
      customTypes: compressibleType,
      brotliOptions: {
        params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 1 },
      },
      zlibOptions: { level: 1 },
    });
  },
  { name: 'compression' },
);
