import t from 'tap';
import {
  NavigationRefusedError,
  detectScriptProtocol,
  encodeRedirectLocation,
  resolveNavigation,
  safeRedirectPath,
  type NavigationOptions,
  type NavigationRefusedReason,
  type NavigationTarget,
} from '../../contract/navigation-guard.ts';

const SITE = 'https://site.example';
const ALLOWED = ['https://allowed.example', 'https://play.example', 'http://localhost:3000'];

const internal = (path: string): NavigationTarget => ({ kind: 'internal', path });
const externalUrl = (url: string): NavigationTarget => ({ kind: 'external', url });

interface Hostile {
  to: unknown;
  external?: boolean;
  reason: NavigationRefusedReason;
  allowedOrigins?: string[];
  note?: string;
}

const EXTERNAL_MSG =
  'Navigating to an external URL is not allowed by default. Use navigateTo(url, { external: true }) with an allowed origin.';

// Each script-protocol vector is tried both without and with external: true.
const scriptVectors: Array<[string, string]> = [
  ['javascript:alert(1)', 'javascript:'],
  ['JaVaScRiPt:alert(1)', 'javascript:'],
  ['JAVASCRIPT:alert(1)', 'javascript:'],
  [' javascript:alert(1)', 'javascript:'],
  ['\tjavascript:alert(1)', 'javascript:'],
  ['\njavascript:alert(1)', 'javascript:'],
  ['\r\n  javascript:alert(1)', 'javascript:'],
  ['\x01javascript:alert(1)', 'javascript:'],
  ['\x0Ejavascript:alert(1)', 'javascript:'],
  ['\x1Fjavascript:alert(1)', 'javascript:'],
  ['\u0000javascript:alert(1)', 'javascript:'],
  ['\u0000\u0000 \x08javascript:alert(1)', 'javascript:'],
  ['java\tscript:alert(1)', 'javascript:'],
  ['java\nscript:alert(1)', 'javascript:'],
  ['java\rscript:alert(1)', 'javascript:'],
  ['javascript\n:alert(1)', 'javascript:'],
  ['jav\tasc\nri\rpt:alert(1)', 'javascript:'],
  ['java\u0000script:alert(1)', 'javascript:'], // not executed by browsers, refused by the paranoid view
  ['javascript:alert(1)  \u0000', 'javascript:'],
  ['javascript://%0Aalert(1)', 'javascript:'],
  ['javascript:void(0)', 'javascript:'],
  ['&#106;avascript:alert(1)', 'javascript:'],
  ['&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58alert(1)', 'javascript:'],
  [
    '&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)',
    'javascript:',
  ],
  ['&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)', 'javascript:'],
  ['java&#x09;script:alert(1)', 'javascript:'],
  ['java&#x0A;script:alert(1)', 'javascript:'],
  ['java&#x0D;script:alert(1)', 'javascript:'],
  ['java&Tab;script:alert(1)', 'javascript:'],
  ['javascript&colon;alert(1)', 'javascript:'],
  ['&#14;  javascript:alert(1)', 'javascript:'],
  ['&amp;#106;avascript:alert(1)', 'javascript:'],
  ['%6A%61%76%61%73%63%72%69%70%74:alert(1)', 'javascript:'],
  ['javascript%3Aalert(1)', 'javascript:'],
  ['java%09script:alert(1)', 'javascript:'],
  ['%25%36%41avascript:alert(1)', 'javascript:'], // double percent-encoding
  ['\u00a0javascript:alert(1)', 'javascript:'],
  ['\u200bjavascript:alert(1)', 'javascript:'],
  ['\ufeffjavascript:alert(1)', 'javascript:'],
  ['java\u200bscript:alert(1)', 'javascript:'],
  ['ｊａｖａｓｃｒｉｐｔ：alert(1)', 'javascript:'],
  ['view-source:javascript:alert(1)', 'javascript:'],
  ['VIEW-SOURCE:javascript:alert(1)', 'javascript:'],
  ['view-source:view-source:javascript:alert(1)', 'javascript:'],
  ['view-source: \tjavascript:alert(1)', 'javascript:'],
  [' view-source:view-source:view-source:JavaScript:alert(1)', 'javascript:'],
  ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data:'],
  ['data:text/html,<script>alert(1)</script>', 'data:'],
  ['DATA:text/html,x', 'data:'],
  ['\u0000data:text/html,x', 'data:'],
  [' d\ta\nta:text/html,x', 'data:'],
  ['view-source:data:text/html,x', 'data:'],
  ['blob:https://site.example/3f1c0b0e-0000-4000-8000-000000000000', 'blob:'],
  ['blob:https://allowed.example/uuid', 'blob:'],
  ['BLOB:null/uuid', 'blob:'],
  ['vbscript:msgbox("x")', 'vbscript:'],
  ['VBScript:msgbox(1)', 'vbscript:'],
  ['\x01vbscript:msgbox(1)', 'vbscript:'],
];

const hostile: Hostile[] = [
  ...scriptVectors.flatMap(([to]): Hostile[] => [
    { to, reason: 'script-protocol' },
    { to, external: true, reason: 'script-protocol', allowedOrigins: [...ALLOWED, 'https://site.example'] },
  ]),
  // External without external: true
  { to: '//evil.com', reason: 'external-not-allowed' },
  { to: '///evil.com', reason: 'external-not-allowed' },
  { to: '/\\evil.com', reason: 'external-not-allowed' },
  { to: '\\\\evil.com', reason: 'external-not-allowed' },
  { to: '\\/evil.com', reason: 'external-not-allowed' },
  { to: '//\\evil.com', reason: 'external-not-allowed' },
  { to: '/\t/evil.com', reason: 'external-not-allowed' },
  { to: '/\n/evil.com', reason: 'external-not-allowed' },
  { to: '/\r\n/evil.com', reason: 'external-not-allowed' },
  { to: ' //evil.com', reason: 'external-not-allowed' },
  { to: '\x01//evil.com', reason: 'external-not-allowed' },
  { to: '\u0000/\\evil.com', reason: 'external-not-allowed' },
  { to: 'https:evil.com', reason: 'external-not-allowed' },
  { to: 'http:evil.com', reason: 'external-not-allowed' },
  { to: 'http://evil.com', reason: 'external-not-allowed' },
  { to: 'HTTP://EVIL.COM', reason: 'external-not-allowed' },
  { to: 'https://allowed.example', reason: 'external-not-allowed', note: 'allowed origin still needs external: true' },
  { to: 'https://site.example@evil.com', reason: 'external-not-allowed' },
  { to: 'mailto:someone@evil.com', reason: 'external-not-allowed' },
  { to: 'tel:+66000000', reason: 'external-not-allowed' },
  { to: 'ftp://evil.com/x', reason: 'external-not-allowed' },
  { to: 'file:///etc/passwd', reason: 'external-not-allowed' },
  { to: 'c:/windows/system32', reason: 'external-not-allowed', note: 'one-letter scheme per WHATWG' },
  { to: 'intent://evil#Intent;scheme=https;end', reason: 'external-not-allowed' },
  { to: 'view-source:https://evil.com', reason: 'external-not-allowed' },
  { to: 'ws://evil.com', reason: 'external-not-allowed' },
  { to: 'livescript:alert(1)', reason: 'external-not-allowed' },
  // External with external: true but the origin is not on the list
  { to: 'https://evil.com', external: true, reason: 'origin-not-allowed' },
  { to: '//evil.com', external: true, reason: 'origin-not-allowed' },
  { to: '/\\evil.com', external: true, reason: 'origin-not-allowed' },
  { to: '\\\\evil.com', external: true, reason: 'origin-not-allowed' },
  { to: 'https://allowed.example@evil.com', external: true, reason: 'origin-not-allowed' },
  { to: 'https://allowed.example%2F@evil.com', external: true, reason: 'origin-not-allowed' },
  { to: 'https://allowed.example:443@evil.com/', external: true, reason: 'origin-not-allowed' },
  { to: 'https://evil.com#https://allowed.example', external: true, reason: 'origin-not-allowed' },
  { to: 'https://evil.com?https://allowed.example', external: true, reason: 'origin-not-allowed' },
  { to: 'https://evil.com/https://allowed.example', external: true, reason: 'origin-not-allowed' },
  { to: 'http://allowed.example.evil.com', external: true, reason: 'origin-not-allowed' },
  { to: 'https://evilallowed.example', external: true, reason: 'origin-not-allowed' },
  { to: 'http://allowed.example', external: true, reason: 'origin-not-allowed', note: 'scheme differs' },
  { to: 'https://allowed.example:8443/', external: true, reason: 'origin-not-allowed', note: 'port differs' },
  { to: 'https://allowed.example./', external: true, reason: 'origin-not-allowed', note: 'trailing dot' },
  { to: 'https://\u0430llowed.example/', external: true, reason: 'origin-not-allowed', note: 'Cyrillic a homograph' },
  { to: 'https:evil.com', external: true, reason: 'origin-not-allowed' },
  { to: 'https://127.0.0.1/', external: true, reason: 'origin-not-allowed' },
  { to: 'http://localhost:3001/', external: true, reason: 'origin-not-allowed' },
  { to: 'mailto:someone@evil.com', external: true, reason: 'origin-not-allowed', note: 'mailto: not listed' },
  { to: 'tel:+66000000', external: true, reason: 'origin-not-allowed', note: 'tel: not listed' },
  { to: 'ftp://allowed.example/', external: true, reason: 'origin-not-allowed' },
  { to: 'file:///etc/passwd', external: true, reason: 'origin-not-allowed' },
  { to: 'view-source:https://allowed.example', external: true, reason: 'origin-not-allowed' },
  { to: 'intent://allowed.example#Intent;end', external: true, reason: 'origin-not-allowed' },
  { to: 'https://user:pass@allowed.example/', external: true, reason: 'invalid-url', note: 'credentials' },
  { to: 'https://user@allowed.example/', external: true, reason: 'invalid-url', note: 'credentials' },
  // Invalid
  { to: 'http://', external: true, reason: 'invalid-url' },
  { to: 'https://exa mple.com', external: true, reason: 'invalid-url' },
  { to: 'https://[::1', external: true, reason: 'invalid-url' },
  { to: 'http://%zz/', external: true, reason: 'invalid-url' },
  { to: null, reason: 'invalid-url' },
  { to: undefined, reason: 'invalid-url' },
  { to: 42, reason: 'invalid-url' },
  { to: { path: '/x' }, reason: 'invalid-url' },
  { to: `/${'a'.repeat(9000)}`, reason: 'invalid-url' },
];

t.test('hostile targets are refused with the right reason', async (t) => {
  t.ok(hostile.length >= 40, `at least 40 hostile cases (got ${hostile.length})`);
  for (const c of hostile) {
    const opts: NavigationOptions = {
      external: c.external,
      allowedOrigins: c.allowedOrigins ?? ALLOWED,
      currentOrigin: SITE,
      currentPath: '/th/asdas',
    };
    const label = `${JSON.stringify(typeof c.to === 'string' ? c.to.slice(0, 80) : c.to)} external=${!!c.external}${c.note ? ` (${c.note})` : ''}`;
    let caught: unknown;
    let result: unknown;
    try {
      result = resolveNavigation(c.to, opts);
    } catch (err) {
      caught = err;
    }
    if (!(caught instanceof NavigationRefusedError)) {
      t.fail(`${label}: expected refusal ${c.reason}, got ${JSON.stringify(result) ?? String(caught)}`);
      continue;
    }
    t.equal(caught.reason, c.reason, label);
  }
});

t.test('refusal messages name the reason', async (t) => {
  const refuse = (to: string, external = false, allowedOrigins = ALLOWED) => {
    try {
      resolveNavigation(to, { external, allowedOrigins, currentOrigin: SITE });
    } catch (err) {
      return err as NavigationRefusedError;
    }
    throw new Error('not refused');
  };
  const ext = refuse('https://evil.com');
  t.equal(ext.message, EXTERNAL_MSG);
  t.equal(ext.name, 'NavigationRefusedError');
  t.ok(ext instanceof Error);

  const js = refuse('\x01JaVaScRiPt:alert(1)', true);
  t.equal(js.message, "Cannot navigate to a URL with 'javascript:' protocol.");
  t.equal(js.protocol, 'javascript:');
  t.equal(refuse('data:text/html,x').message, "Cannot navigate to a URL with 'data:' protocol.");
  t.equal(refuse('view-source:BLOB:x', true).message, "Cannot navigate to a URL with 'blob:' protocol.");
  t.equal(refuse('vbscript:x').protocol, 'vbscript:');

  const origin = refuse('https://evil.com/path', true);
  t.equal(origin.message, "Navigating to 'https://evil.com' is not allowed: it is not on the list of allowed origins.");
  t.equal(
    refuse('mailto:a@b.c', true).message,
    "Navigating to 'mailto:' is not allowed: it is not on the list of allowed origins.",
  );
  t.equal(refuse('http://', true).message, 'Cannot navigate to an invalid URL.');
  t.equal(refuse('https://u:p@allowed.example', true).message, 'Cannot navigate to a URL with embedded credentials.');
});

interface Legit {
  to: string;
  expected: NavigationTarget;
  external?: boolean;
  currentPath?: string;
  allowedOrigins?: string[];
}

const legit: Legit[] = [
  // Internal paths
  { to: '/', expected: internal('/') },
  { to: '', expected: internal('/') },
  { to: '/asdas', expected: internal('/asdas') },
  { to: '/asdas/how-to-read-bonus-terms', expected: internal('/asdas/how-to-read-bonus-terms') },
  { to: '/th', expected: internal('/th') },
  { to: '/th/asdas/x', expected: internal('/th/asdas/x') },
  { to: '/asdas?page=2', expected: internal('/asdas?page=2') },
  { to: '/asdas?page=2#top', expected: internal('/asdas?page=2#top') },
  { to: '/asdas#section-2', expected: internal('/asdas#section-2') },
  { to: '/search?q=a%20b&lang=th', expected: internal('/search?q=a%20b&lang=th') },
  { to: '/search?q=a b', expected: internal('/search?q=a%20b') },
  { to: '/search?q=ไทย', expected: internal('/search?q=%E0%B9%84%E0%B8%97%E0%B8%A2') },
  { to: '/th/บทความ', expected: internal('/th/%E0%B8%9A%E0%B8%97%E0%B8%84%E0%B8%A7%E0%B8%B2%E0%B8%A1') },
  { to: '/th/%E0%B8%9A%E0%B8%97', expected: internal('/th/%E0%B8%9A%E0%B8%97') },
  { to: '/already%20encoded', expected: internal('/already%20encoded') },
  { to: '/😀', expected: internal('/%F0%9F%98%80') },
  { to: '/a/b/../c', expected: internal('/a/c') },
  { to: '/a/./b', expected: internal('/a/b') },
  { to: '/a/%2e%2e/b', expected: internal('/b') },
  { to: '/login?redirect=%2Fasdas', expected: internal('/login?redirect=%2Fasdas') },
  { to: '/login?redirect=/th/bonus', expected: internal('/login?redirect=/th/bonus') },
  { to: '/path:with:colons', expected: internal('/path:with:colons') },
  { to: '/javascript:alert(1)', expected: internal('/javascript:alert(1)') },
  { to: '/go?url=javascript:alert(1)', expected: internal('/go?url=javascript:alert(1)') },
  { to: '/a%2Fb', expected: internal('/a%2Fb') },
  { to: '/%2F/evil.com', expected: internal('/%2F/evil.com') },
  { to: '/%5Cevil.com', expected: internal('/%5Cevil.com') },
  { to: '/.//evil.com', expected: internal('/evil.com') },
  { to: '/./\\/evil.com', expected: internal('/evil.com') },
  { to: '/ /evil.com', expected: internal('/%20/evil.com') },
  { to: '  /asdas  ', expected: internal('/asdas') },
  { to: '/asdas\n', expected: internal('/asdas') },
  { to: '/as\tdas', expected: internal('/asdas') },
  { to: '/x?a="<b>"', expected: internal('/x?a=%22%3Cb%3E%22') },
  { to: "/x?a='1'", expected: internal('/x?a=%271%27') },
  // Relative
  { to: 'asdas', expected: internal('/asdas') },
  { to: 'asdas', currentPath: '/th/x', expected: internal('/th/asdas') },
  { to: 'asdas/x:y', expected: internal('/asdas/x:y') },
  { to: './x', currentPath: '/th/asdas/', expected: internal('/th/asdas/x') },
  { to: '../bonus', currentPath: '/th/asdas/post', expected: internal('/th/bonus') },
  { to: '?page=2', currentPath: '/asdas', expected: internal('/asdas?page=2') },
  { to: '?page=2', currentPath: '/asdas?page=1', expected: internal('/asdas?page=2') },
  { to: '#section', currentPath: '/asdas?page=3', expected: internal('/asdas?page=3#section') },
  { to: 'data', expected: internal('/data') },
  { to: 'javascript', expected: internal('/javascript') },
  // Same-origin absolute URLs become internal
  { to: 'https://site.example/asdas?x=1#y', expected: internal('/asdas?x=1#y') },
  { to: 'HTTPS://SITE.EXAMPLE/Asdas', expected: internal('/Asdas') },
  { to: 'https://site.example:443/th', expected: internal('/th') },
  { to: '//site.example/asdas', expected: internal('/asdas') },
  { to: '\\\\site.example\\asdas', expected: internal('/asdas') },
  { to: 'https://site.example//evil.com', expected: internal('/evil.com') },
  { to: 'https://site.example/x', external: true, expected: internal('/x') },
  // Allowed external targets
  {
    to: 'https://play.example/launch?t=abc.def',
    external: true,
    expected: externalUrl('https://play.example/launch?t=abc.def'),
  },
  { to: 'https://play.example', external: true, expected: externalUrl('https://play.example/') },
  { to: 'HTTPS://PLAY.EXAMPLE/Launch', external: true, expected: externalUrl('https://play.example/Launch') },
  { to: 'https://play.example:443/x', external: true, expected: externalUrl('https://play.example/x') },
  { to: 'https://play.example/a#frag', external: true, expected: externalUrl('https://play.example/a#frag') },
  { to: ' https://play.example/x\n', external: true, expected: externalUrl('https://play.example/x') },
  {
    to: 'https://play.example/cb?next=https://evil.com',
    external: true,
    expected: externalUrl('https://play.example/cb?next=https://evil.com'),
  },
  { to: '//play.example/x', external: true, expected: externalUrl('https://play.example/x') },
  { to: 'http://localhost:3000/game', external: true, expected: externalUrl('http://localhost:3000/game') },
  {
    to: 'https://allowed.example\\@evil.com',
    external: true,
    expected: externalUrl('https://allowed.example/@evil.com'),
  },
  {
    to: 'https://play.example/ไทย',
    external: true,
    expected: externalUrl('https://play.example/%E0%B9%84%E0%B8%97%E0%B8%A2'),
  },
  {
    to: 'mailto:help@site.example',
    external: true,
    allowedOrigins: ['mailto:'],
    expected: externalUrl('mailto:help@site.example'),
  },
  { to: 'tel:+6621234567', external: true, allowedOrigins: ['TEL:'], expected: externalUrl('tel:+6621234567') },
  {
    to: 'https://play.example/x',
    external: true,
    allowedOrigins: ['https://PLAY.example:443/some/path', 'not a url'],
    expected: externalUrl('https://play.example/x'),
  },
];

t.test('legitimate targets are accepted with the expected result', async (t) => {
  t.ok(legit.length >= 40, `at least 40 legitimate cases (got ${legit.length})`);
  for (const c of legit) {
    const label = `${JSON.stringify(c.to)} external=${!!c.external}${c.currentPath ? ` from ${c.currentPath}` : ''}`;
    try {
      const result = resolveNavigation(c.to, {
        external: c.external,
        allowedOrigins: c.allowedOrigins ?? ALLOWED,
        currentOrigin: SITE,
        currentPath: c.currentPath,
      });
      t.same(result, c.expected, label);
      if (result.kind === 'internal') {
        t.match(result.path, /^\/(?![/\\])/, `${label}: internal path starts with a single slash`);
      }
    } catch (err) {
      t.fail(`${label}: refused (${(err as Error).message})`);
    }
  }
});

t.test('a hostile currentPath cannot move relative targets off the site', async (t) => {
  const opts = { allowedOrigins: [], currentOrigin: SITE };
  t.same(resolveNavigation('asdas', { ...opts, currentPath: '//evil.com/th/x' }), internal('/th/asdas'));
  t.same(resolveNavigation('x', { ...opts, currentPath: '/\\evil.com/' }), internal('/x'));
  t.same(resolveNavigation('?a=1', { ...opts, currentPath: 'https://evil.com/p' }), internal('/p?a=1'));
});

t.test('a bad currentOrigin is a programming error, not a refusal', async (t) => {
  t.throws(() => resolveNavigation('/x', { allowedOrigins: [], currentOrigin: 'not-an-origin' }), TypeError);
});

t.test('detectScriptProtocol', async (t) => {
  t.equal(detectScriptProtocol('javascript:x'), 'javascript:');
  t.equal(detectScriptProtocol(' \u0000DaTa:x'), 'data:');
  t.equal(detectScriptProtocol('/javascript:x'), null);
  t.equal(detectScriptProtocol('https://site.example/?javascript:x'), null);
  t.equal(detectScriptProtocol('mailto:x@y.z'), null);
  t.equal(detectScriptProtocol('view-source:https://x'), null);
});

t.test('safeRedirectPath', async (t) => {
  const cases: Array<[unknown, string, string?]> = [
    ['/asdas', '/asdas'],
    ['/th/asdas/x?page=2#c', '/th/asdas/x?page=2#c'],
    ['%2Fasdas', '/%2Fasdas'], // not decoded: a literal relative segment, still internal
    ['asdas', '/asdas'],
    ['/ไทย', '/%E0%B9%84%E0%B8%97%E0%B8%A2'],
    ['/.//evil.com', '/evil.com'],
    ['//evil.com', '/'],
    ['/\\evil.com', '/'],
    ['\\\\evil.com', '/'],
    ['/\t/evil.com', '/'],
    ['https://evil.com', '/'],
    ['https:evil.com', '/'],
    ['javascript:alert(1)', '/'],
    [' \x01javascript:alert(1)', '/'],
    ['data:text/html,x', '/'],
    ['', '/'],
    ['   ', '/'],
    [undefined, '/'],
    [null, '/'],
    [['/a', '/b'], '/'],
    [123, '/'],
    ['//evil.com', '/th', '/th'],
  ];
  for (const [value, expected, fallback] of cases) {
    t.equal(safeRedirectPath(value, fallback), expected, JSON.stringify(value));
  }
  // Same-origin absolute URL is accepted only when the origin is known.
  t.equal(safeRedirectPath('https://site.example/asdas?x=1'), '/');
  t.equal(safeRedirectPath('https://site.example/asdas?x=1', '/', SITE), '/asdas?x=1');
  t.equal(safeRedirectPath('https://evil.com/asdas', '/', SITE), '/');
});

t.test('encodeRedirectLocation', async (t) => {
  const cases: Array<[string, string]> = [
    ['/asdas', '/asdas'],
    ['/th/asdas?page=2#x', '/th/asdas?page=2#x'],
    ['//evil.com', '/'],
    ['//evil.com/x?y=1', '/x?y=1'],
    ['/\\evil.com', '/'],
    ['\\\\evil.com/path', '/path'],
    ['/.//evil.com', '/evil.com'],
    ['////evil.com', '/'],
    ['https://evil.com/a', '/a'],
    ['javascript:alert(1)', '/'],
    ['/a b', '/a%20b'],
    ['/ไทย', '/%E0%B9%84%E0%B8%97%E0%B8%A2'],
    ['/x?q=<script>"', '/x?q=%3Cscript%3E%22'],
    ['/x\r\nSet-Cookie: a=b', '/xSet-Cookie:%20a=b'],
    ['/a%2F%2Fb', '/a%2F%2Fb'],
    ['/already%20encoded', '/already%20encoded'],
  ];
  for (const [input, expected] of cases) {
    const out = encodeRedirectLocation(input);
    t.equal(out, expected, JSON.stringify(input));
    // eslint-disable-next-line no-control-regex -- no control character may reach a header
    t.notMatch(out, /[\s\u0000-\u001f"<>]/, `${JSON.stringify(input)}: header-safe`);
    t.match(out, /^\/(?![/\\])/, `${JSON.stringify(input)}: never protocol-relative`);
  }
});
