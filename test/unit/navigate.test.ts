import t from 'tap';
import {
  createNavigateTo,
  hardNavigate,
  isLeavingPage,
  navigateTo,
  type NavigationEnvironment,
  type RouterNavigator,
} from '../../client/lib/navigate.ts';
import { NavigationRefusedError } from '../../contract/navigation-guard.ts';

const origin = 'https://site.example';

/** A browser stand-in: records what navigateTo asked the location and the router to do. */
function fakeBrowser(path = '/', { allowed = [] as string[], withRouter = true } = {}) {
  const url = new URL(path, origin);
  const calls: string[] = [];
  const location = {
    origin,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    assign: (href: string | URL) => void calls.push(`assign ${String(href)}`),
    replace: (href: string | URL) => void calls.push(`replace ${String(href)}`),
    reload: () => void calls.push('reload'),
  };
  const router: RouterNavigator = {
    navigate: async (to, options) => void calls.push(`router ${to}${options?.replace ? ' (replace)' : ''}`),
  };
  const env: NavigationEnvironment = {
    location,
    allowedOrigins: () => allowed,
    router: () => (withRouter ? router : null),
  };
  return { calls, env, go: createNavigateTo(() => env) };
}

t.test('internal targets navigate in the router, resolved against the current page', async (t) => {
  const cases: [from: string, to: string, expected: string][] = [
    ['/', '/bonus', '/bonus'],
    ['/', '/th/asdas?page=2#top', '/th/asdas?page=2#top'],
    ['/th/bonus', 'asdas', '/th/asdas'],
    ['/asdas?page=2', '?page=3', '/asdas?page=3'],
    ['/bonus', '#terms', '/bonus#terms'],
    ['/', '', '/'],
    ['/', '/login?redirect=%2Fbonus%3Fa%3D1', '/login?redirect=%2Fbonus%3Fa%3D1'],
    ['/', '/asdas/ข่าว', '/asdas/%E0%B8%82%E0%B9%88%E0%B8%B2%E0%B8%A7'],
    ['/', `${origin}/author`, '/author'],
    ['/', 'HTTPS://SITE.EXAMPLE:443/author', '/author'],
    ['/', '/.//evil.com', '/evil.com'],
    ['/a/b', '../../../x', '/x'],
  ];
  for (const [from, to, expected] of cases) {
    const browser = fakeBrowser(from);
    await browser.go(to);
    t.same(browser.calls, [`router ${expected}`], `${JSON.stringify(to)} from ${from}`);
  }
  const browser = fakeBrowser('/');
  await browser.go('/bonus', { replace: true });
  t.same(browser.calls, ['router /bonus (replace)'], 'replace reaches the router');
});

t.test('without a router (start-up failed) an internal target is a full load', async (t) => {
  const away = fakeBrowser('/bonus', { withRouter: false });
  await away.go('/');
  t.same(away.calls, ['assign /']);
  const replaced = fakeBrowser('/bonus', { withRouter: false });
  await replaced.go('/', { replace: true });
  t.same(replaced.calls, ['replace /']);
  const same = fakeBrowser('/', { withRouter: false });
  await same.go('/');
  t.same(same.calls, ['reload'], 'the page already shown is reloaded');
  const hashOnly = fakeBrowser('/bonus', { withRouter: false });
  await hashOnly.go('#terms');
  t.same(hashOnly.calls, ['assign /bonus#terms', 'reload'], 'a hash-only change still loads the document');
  t.ok(isLeavingPage(), 'the page knows it is being left');
});

type Asserts = Pick<typeof t, 'type' | 'equal' | 'match' | 'fail'>;

function refusal(t: Asserts, go: () => unknown, reason: string, message: RegExp, label: string) {
  try {
    go();
    t.fail(`${label}: not refused`);
  } catch (error) {
    t.type(error, NavigationRefusedError, label);
    t.equal((error as NavigationRefusedError).reason, reason, `${label}: ${reason}`);
    t.match((error as Error).message, message, `${label}: the message names the reason`);
  }
}

t.test('external targets are refused unless external: true and the origin is allowed', async (t) => {
  const allowed = ['https://play.example', 'mailto:'];
  const externalMessage = /external URL is not allowed by default.*external: true/;
  for (const to of [
    'https://evil.com',
    'http://evil.com/x',
    '//evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    '\\/evil.com',
    '/\t/evil.com',
    ' //evil.com',
    'https:evil.com',
    'https://play.example/launch',
    'mailto:someone@example.com',
    'ftp://files.example',
  ]) {
    const browser = fakeBrowser('/', { allowed });
    refusal(t, () => browser.go(to), 'external-not-allowed', externalMessage, JSON.stringify(to));
    t.same(browser.calls, [], `${JSON.stringify(to)}: nothing navigated`);
  }
  for (const to of [
    'https://evil.com',
    '//evil.com/x',
    'https://play.example.evil.com/',
    'http://play.example',
    'https://play.example:8443',
  ]) {
    const browser = fakeBrowser('/', { allowed });
    refusal(
      t,
      () => browser.go(to, { external: true }),
      'origin-not-allowed',
      /not on the list of allowed origins/,
      `${to} (external: true)`,
    );
    t.same(browser.calls, []);
  }
  const noList = fakeBrowser('/');
  refusal(
    t,
    () => noList.go('https://play.example', { external: true }),
    'origin-not-allowed',
    /allowed origins/,
    'empty allow-list',
  );

  const play = fakeBrowser('/', { allowed });
  await play.go('https://play.example/launch?token=abc', { external: true });
  t.same(
    play.calls,
    ['assign https://play.example/launch?token=abc'],
    'an allowed origin with external: true leaves the site',
  );
  const replaced = fakeBrowser('/', { allowed });
  await replaced.go('https://PLAY.example:443/x', { external: true, replace: true });
  t.same(replaced.calls, ['replace https://play.example/x']);
  const mail = fakeBrowser('/', { allowed });
  await mail.go('mailto:help@site.example', { external: true });
  t.same(mail.calls, ['assign mailto:help@site.example']);
  const credentials = fakeBrowser('/', { allowed });
  refusal(
    t,
    () => credentials.go('https://user:pw@play.example/', { external: true }),
    'invalid-url',
    /credentials/,
    'credentials',
  );
});

t.test('script protocols are always refused, even with external: true and every origin allowed', async (t) => {
  const allowed = ['https://play.example', 'mailto:', 'tel:'];
  const hostile = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    '\njavascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'javascript\t:alert(1)',
    'view-source:javascript:alert(1)',
    'VIEW-SOURCE:view-source:javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    ' data:,x',
    'blob:https://site.example/uuid',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'java%09script:alert(1)',
    'ｊａｖａｓｃｒｉｐｔ:alert(1)',
    '\u200bjavascript:alert(1)',
  ];
  for (const to of hostile) {
    for (const options of [{}, { external: true }, { external: true, replace: true }]) {
      const browser = fakeBrowser('/bonus', { allowed });
      refusal(
        t,
        () => browser.go(to, options),
        'script-protocol',
        /Cannot navigate to a URL with '(javascript|data|blob|vbscript):' protocol\./,
        `${JSON.stringify(to)} ${JSON.stringify(options)}`,
      );
      t.same(browser.calls, [], 'nothing navigated');
    }
  }
});

t.test('bad input is refused as an invalid URL', async (t) => {
  const browser = fakeBrowser('/');
  refusal(t, () => browser.go(42 as unknown as string), 'invalid-url', /invalid URL/, 'a number');
  refusal(t, () => browser.go(`/${'a'.repeat(9000)}`), 'invalid-url', /invalid URL/, 'too long');
});

t.test(
  'the browser navigateTo: a full load before the router exists, and a clear error outside the browser',
  async (t) => {
    t.throws(() => navigateTo('/'), /navigateTo runs in the browser/, 'on the server it says where redirects belong');

    const calls: string[] = [];
    const location = {
      origin,
      pathname: '/',
      search: '',
      hash: '',
      assign: (href: string) => calls.push(`assign ${href}`),
      replace: () => undefined,
      reload: () => undefined,
    };
    const globals = globalThis as unknown as { window?: unknown };
    globals.window = { location, __ASDAS__: { allowedExternalOrigins: ['https://play.example'] } };
    t.teardown(() => delete globals.window);

    // client/lib/app-router.ts makes the router at start; test/browser/runtime.test.ts navigates in it.
    await navigateTo('/th');
    t.same(calls, ['assign /th'], 'no router yet: a full load');
    await navigateTo('https://play.example/x', { external: true });
    t.same(calls, ['assign /th', 'assign https://play.example/x'], 'the allow-list comes from window.__ASDAS__');
  },
);

t.test('hardNavigate compares the whole target with the address shown', async (t) => {
  const { env, calls } = fakeBrowser('/asdas?page=2#top');
  hardNavigate('/asdas?page=2#top', env);
  hardNavigate('/asdas?page=3', env);
  hardNavigate('/asdas?page=2#other', env);
  hardNavigate('/bonus', env, true);
  t.same(calls, ['reload', 'assign /asdas?page=3', 'assign /asdas?page=2#other', 'reload', 'replace /bonus']);
});
