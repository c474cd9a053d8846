import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';

/** The encodings the site sends, best first (zstd and deflate are not offered: one fewer variant to store). */
export const contentEncodings = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof contentEncodings)[number];
export type Encoding = ContentEncoding | 'identity';

/** Smaller bodies are sent as they are: compression would save less than it costs (same as @fastify/compress's default). */
export const compressionThresholdBytes = 1024;

/** HTML, JSON, CSS, JavaScript, SVG and other text: what compressing helps. */
export const compressibleType = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript)|image\/svg\+xml)/i;

/**
 * The encoding to answer `Accept-Encoding` with, as @fastify/compress negotiates it (so a cached
 * page and a freshly compressed one agree): q-values honoured, br preferred on a tie, `*` and
 * `x-gzip` read as gzip, no header or nothing acceptable → identity.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const normalised = header.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(normalised, [...contentEncodings, 'identity']) ?? 'identity';
}

const brotli = promisify(brotliCompress);

/** Text mode (the site compresses only text) and the size known up front, at the given quality. */
function brotliOptions(body: Buffer | string, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    },
  };
}
const gzipAsync = promisify(gzip);

/**
 * Brotli quality for stored bodies. Measured on the home page (27 KB): quality 4 (what
 * @fastify/compress uses per response) 6.7 KB in ~1 ms, 6 6.2 KB in ~5 ms, 9 no smaller at ~200 ms,
 * 11 5.5 KB at ~700 ms on this 2-core machine: 11 would stall a content reload's first hits.
 */
const storedBrotliQuality = 6;

/**
 * Compresses a body once for storing (the page cache): paid once per page and encoding, so a
 * little stronger than per-response compression. Runs on libuv's thread pool, not the event loop.
 */
export function compressForStorage(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, brotliOptions(body, storedBrotliQuality));
  }
  return gzipAsync(body, { level: constants.Z_BEST_COMPRESSION });
}

/** Brotli quality per response: what @fastify/compress uses, a fair trade for bodies made per request. */
const responseBrotliQuality = 4;

/**
 * Compresses one response body in one synchronous call: for a body that is already whole (a
 * rendered page, a JSON answer). Measured on the home page (27 KB, this 2-core machine): 0.31 ms
 * of CPU this way; 0.47–0.71 ms in all through the thread pool (of which 0.24 ms on the event
 * loop) and more again through @fastify/compress's stream, whose bookkeeping a profile of uncached
 * pages showed costing about a third as much as the compression itself. A replica is sized by
 * the CPU it uses (one core each), so the cheapest way in CPU wins.
 */
export function compressResponse(body: Buffer | string, encoding: ContentEncoding): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(body, brotliOptions(body, responseBrotliQuality));
  }
  return gzipSync(body);
}

/**
 * Adds `accept-encoding` to a `Vary` header value, keeping what is there (`*` already covers it).
 * Lower case, as @fastify/compress and @fastify/static write it, so neither adds it twice.
 */
export function varyWithAcceptEncoding(current: string | undefined): string {
  if (!current) return 'accept-encoding';
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes('accept-encoding')) return current;
  return `${current}, accept-encoding`;
}
