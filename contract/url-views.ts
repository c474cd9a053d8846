/** Views of a navigation target as the parsers that may meet it see it (navigation-guard.ts). */
const SCRIPT_PROTOCOLS: readonly string[] = ['javascript:', 'data:', 'blob:', 'vbscript:'];

// eslint-disable-next-line no-control-regex -- the WHATWG URL parser strips exactly these
const LEADING_TRAILING_C0_SPACE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

/** The string exactly as the WHATWG URL parser will read it. */
export function whatwgView(input: string): string {
  return input.replace(LEADING_TRAILING_C0_SPACE, '').replace(TAB_OR_NEWLINE, '');
}

export const SCHEME_RE = /^([a-zA-Z][a-zA-Z\d+.-]*):/;
const VIEW_SOURCE_RE = /^view-source:/i;
export const PROTOCOL_RELATIVE_RE = /^[/\\]{2}/;

const NAMED_ENTITIES: Record<string, string> = {
  tab: '\t',
  newline: '\n',
  colon: ':',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  period: '.',
  nbsp: '\u00a0',
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  excl: '!',
  num: '#',
  percnt: '%',
  semi: ';',
  equals: '=',
  zwsp: '\u200b',
  shy: '\u00ad',
};

function decodeEntitiesOnce(s: string): string {
  return s
    .replace(/&#x0*([0-9a-f]{1,6});?/gi, (m, hex: string) => codePoint(parseInt(hex, 16), m))
    .replace(/&#0*(\d{1,7});?/g, (m, dec: string) => codePoint(parseInt(dec, 10), m))
    .replace(/&([a-z]+);?/gi, (m, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? m);
}

function codePoint(n: number, fallback: string): string {
  // HTML makes these U+FFFD; any invisible replacement does here.
  if (!Number.isFinite(n) || n === 0 || n > 0x10ffff) return '';
  try {
    return String.fromCodePoint(n);
  } catch {
    return fallback;
  }
}

function percentDecodeOnce(s: string): string {
  // Byte-wise (latin1) decoding is enough to reveal an ASCII scheme and never throws.
  return s.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const INVISIBLE_ANYWHERE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- each invisible character on its own, combining ones too
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]|\s/g;

function paranoidViews(input: string): string[] {
  const views: string[] = [];
  let current = input;
  for (let i = 0; i < 6; i++) {
    const next = percentDecodeOnce(decodeEntitiesOnce(current)).normalize('NFKC');
    views.push(next.replace(INVISIBLE_ANYWHERE, ''));
    if (next === current) break;
    current = next;
  }
  return views;
}

function scriptSchemeOf(view: string): string | null {
  let v = view;
  for (let i = 0; i < 32 && VIEW_SOURCE_RE.test(v); i++) {
    v = whatwgView(v.replace(VIEW_SOURCE_RE, ''));
  }
  const m = SCHEME_RE.exec(v);
  if (!m) return null;
  const protocol = `${m[1]!.toLowerCase()}:`;
  return SCRIPT_PROTOCOLS.includes(protocol) ? protocol : null;
}

function parserProtocol(view: string): string | null {
  try {
    return new URL(view, 'http://localhost/').protocol;
  } catch {
    return null;
  }
}

/** The script protocol `input` would run or could be decoded into, or `null`; fit for hrefs too. */
export function detectScriptProtocol(input: string): string | null {
  // The WHATWG URL parser decides what a browser runs; the paranoid views catch encoded tricks.
  let view = whatwgView(input);
  for (let i = 0; i < 32; i++) {
    const protocol = parserProtocol(view);
    if (protocol && SCRIPT_PROTOCOLS.includes(protocol)) return protocol;
    if (protocol !== 'view-source:' || !VIEW_SOURCE_RE.test(view)) break;
    view = whatwgView(view.replace(VIEW_SOURCE_RE, ''));
  }
  const direct = scriptSchemeOf(whatwgView(input));
  if (direct) return direct;
  for (const v of paranoidViews(input)) {
    const found = scriptSchemeOf(v);
    if (found) return found;
  }
  return null;
}
