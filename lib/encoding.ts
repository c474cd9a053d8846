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
function brotliOptions(body: Buffer, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
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

/**
 * Brotli quality and gzip level per response: the fastest, for bodies made per request (pages a
 * logged-in reader sees, payloads, JSON; anonymous pages come from the page cache, stored
 * stronger). Measured on the home page (27 KB of HTML, this 2-core machine): brotli quality 1
 * 7.7 KB in 0.08 ms, 2 7.2 KB in 0.15 ms, 4 (@fastify/compress's choice) 6.8 KB in 0.25 ms;
 * gzip level 1 7.3 KB in 0.14 ms, 6 6.7 KB in 0.24 ms. Quality 4 cost a fifth of an uncached
 * page's CPU for 0.9 KB; the Thai home page (41 KB) is 9.6 KB at quality 1, still under a quarter.
 */
const responseBrotliQuality = 1;
const responseGzipLevel = 1;

/**
 * Compresses one response body in one synchronous call: for a body that is already whole (a
 * rendered page, a JSON answer). Synchronous because it is cheap (above): through the thread
 * pool the same work cost more in all, and @fastify/compress's stream more again (a profile of
 * uncached pages showed its bookkeeping costing about a third as much as the compression). A
 * replica is sized by the CPU it uses (one core each), so the cheapest way in CPU wins.
 */
export function compressResponse(body: Buffer, encoding: ContentEncoding): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(body, brotliOptions(body, responseBrotliQuality));
  }
  return gzipSync(body, { level: responseGzipLevel });
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
