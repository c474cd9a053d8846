import { createHash } from 'node:crypto';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * RFC 9110's weak comparison against our tag, or any of a page's tags (one per encoding): a proxy
 * that compressed the body may have weakened our tag to `W/"…"`.
 */
export function matchesIfNoneMatch(header: string | undefined, etags: string | readonly string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = typeof etags === 'string' ? [etags.replace(/^W\//, '')] : etags.map((tag) => tag.replace(/^W\//, ''));
  return header.split(',').some((candidate) => opaque.includes(candidate.trim().replace(/^W\//, '')));
}
