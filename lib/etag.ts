import { createHash } from 'node:crypto';

/** A strong ETag for a response body: a hash of its bytes, so it changes exactly when the body does. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether an `If-None-Match` request header matches `etag` (RFC 9110 §13.1.2: weak comparison,
 * a list of tags or `*`). A proxy that compressed the body may have weakened our tag to `W/"…"`.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
