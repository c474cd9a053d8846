import { createHash } from 'node:crypto';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** RFC 9110's weak comparison with our tag(s): a compressing proxy may have made ours `W/"…"`. */
export function matchesIfNoneMatch(header: string | undefined, etags: string | readonly string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = typeof etags === 'string' ? [etags.replace(/^W\//, '')] : etags.map((tag) => tag.replace(/^W\//, ''));
  return header.split(',').some((candidate) => opaque.includes(candidate.trim().replace(/^W\//, '')));
}
