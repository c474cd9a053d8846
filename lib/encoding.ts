import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, constants, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import { stringMemo } from './string-memo.ts';

/** Best first. zstd and deflate are not offered: one fewer variant to store. */
export const contentEncodings = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof contentEncodings)[number];
export type Encoding = ContentEncoding | 'identity';

/** Smaller bodies go uncompressed, as with @fastify/compress's default. */
export const compressionThresholdBytes = 1024;

export const compressibleType =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript)|image\/svg\+xml)/i;

/** As @fastify/compress negotiates, so a cached page and a freshly compressed one agree. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  return negotiated(header);
}

const offered: Encoding[] = [...contentEncodings, 'identity'];
const negotiated = stringMemo((header: string): Encoding => {
  const normalised = header.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(normalised, offered) ?? 'identity';
});

const brotli = promisify(brotliCompress);

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

/** Stored bodies: 11 would stall a content reload's first hits (figures: decision 0018). */
const storedBrotliQuality = 6;

/** Paid once per page and encoding, so stronger than per response. */
export function compressForStorage(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, brotliOptions(body, storedBrotliQuality));
  }
  return gzipAsync(body, { level: constants.Z_BEST_COMPRESSION });
}

/** Lower case, as @fastify/compress and @fastify/static write it, so neither adds it twice. */
export function varyWithAcceptEncoding(current: string | undefined): string {
  if (!current) return 'accept-encoding';
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes('accept-encoding')) return current;
  return `${current}, accept-encoding`;
}
