/**
 * The one spelling of a path the service acts on (RFC 3986, 6.2.2; decision 0026): unreserved
 * escapes decoded, others upper-cased, raw characters a path may not hold encoded, `//` merged,
 * dot segments removed, no trailing slash but on `/`.
 */
export type PathVerdict =
  | { kind: 'normal' }
  /** `path` is the normal form, without the query. */
  | { kind: 'other-spelling'; path: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'too-long' };

/** Characters of a decoded segment; also Fastify's `maxParamLength`. */
export const maxSegmentLength = 500;

// A path with none of these (outside RFC 3986's pchar and `/`) is normal.
const needsWork = /%|\/\.|\/\/|.\/$|[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/;
const unreserved = /^[A-Za-z0-9\-._~]$/;
const hexPair = /^[0-9A-Fa-f]{2}$/;
// eslint-disable-next-line no-control-regex -- C0, DEL, C1, U+2028/9: no page or file is named so
const control = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** `target`: `request.url`, as the client sent it. */
export function checkPath(target: string): PathVerdict {
  const queryStart = target.indexOf('?');
  let path = queryStart === -1 ? target : target.slice(0, queryStart);
  if (!path.startsWith('/')) {
    // The absolute form (`GET http://host/path`), which servers must accept.
    const absolute = /^https?:\/\/[^/?#]*(\/[^?#]*)?$/i.exec(path);
    if (!absolute) return { kind: 'malformed', reason: 'the request target is not a path' };
    path = absolute[1] ?? '/';
    const normal = normalise(path);
    return typeof normal === 'string' ? { kind: 'other-spelling', path: normal } : normal;
  }
  if (!needsWork.test(path)) return hasLongSegment(path) ? { kind: 'too-long' } : { kind: 'normal' };
  const normal = normalise(path);
  if (typeof normal !== 'string') return normal;
  return normal === path ? { kind: 'normal' } : { kind: 'other-spelling', path: normal };
}

function normalise(path: string): string | PathVerdict {
  if (path.includes('#')) return { kind: 'malformed', reason: 'a request target has no fragment' };
  let spelled = '';
  for (let index = 0; index < path.length; index += 1) {
    const char = path[index]!;
    if (char === '%') {
      const hex = path.slice(index + 1, index + 3);
      if (!hexPair.test(hex)) return { kind: 'malformed', reason: 'a percent sign not followed by two hex digits' };
      const decoded = String.fromCharCode(Number.parseInt(hex, 16));
      spelled += unreserved.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      index += 2;
    } else if (/[A-Za-z0-9\-._~!$&'()*+,;=:@/]/.test(char)) {
      spelled += char;
    } else {
      // Node reads the request line as Latin-1: each character is one byte the client sent.
      const code = char.charCodeAt(0);
      if (code > 0xff) return { kind: 'malformed', reason: 'a character that is not a byte' };
      spelled += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(spelled);
  } catch {
    return { kind: 'malformed', reason: 'escapes that are not UTF-8' };
  }
  if (control.test(decoded)) return { kind: 'malformed', reason: 'a control character' };
  if (hasLongSegment(decoded)) return { kind: 'too-long' };
  return withoutDotSegments(spelled);
}

function hasLongSegment(path: string): boolean {
  return path.length > maxSegmentLength && path.split('/').some((segment) => segment.length > maxSegmentLength);
}

/** RFC 3986 5.2.4, empty segments dropped too. */
function withoutDotSegments(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
