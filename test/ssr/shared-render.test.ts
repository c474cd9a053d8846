import t from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// A signed-in visitor's copy of a shared page (contract/routes.ts `sharedRender`) is the page drawn
// once for everyone with the visitor's parts drawn per request (client/router/shared-render.server.tsx).
// The first signed-in render of a page is a whole render, checked against the shell; the others
// come from the shell and must be the same bytes.

const { app, logs, close } = await startTestApp();
t.teardown(close);

async function signUp(email: string, displayName: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'a fine passphrase 1', displayName, locale: 'en', acceptTerms: true, confirmAge: true },
    headers: { 'user-agent': browserUserAgent },
  });
  t.equal(response.statusCode, 201, `${email} registered`);
  await app.jobs.settled();
  return `token=${response.cookies.find((entry) => entry.name === 'token')!.value}`;
}

const page = (url: string, cookie?: string) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, ...(cookie ? { cookie } : {}) } });

const sharedPages = [
  '/',
  '/asdas',
  '/asdas?page=2',
  '/asdas/rtp-explained',
  '/bonus',
  '/author',
  '/author/nicha-srisuk',
  '/table-of-content',
];

t.test('a page drawn from its shell is the whole render, byte for byte, in both languages', async (t) => {
  const cookie = await signUp('ann@example.com', 'Ann <b>&');
  for (const path of sharedPages.flatMap((path) => [path, `/th${path === '/' ? '' : path}`])) {
    const whole = await page(path, cookie);
    t.equal(whole.statusCode, 200, path);
    const fromShell = await page(path, cookie);
    t.equal(fromShell.body, whole.body, `${path}: the same bytes from the shell`);
    t.match(fromShell.body, 'Ann &lt;b&gt;&amp;', `${path}: the visitor's name, escaped`);
    t.notMatch(fromShell.body, 'data-visitor-part', `${path}: no marker left`);
  }
  t.same(
    logs.filter((line) => String(line.msg).includes('not shared')),
    [],
    'no shared page differs outside its visitor parts',
  );
});

t.test("each visitor gets their own parts, never another's or an anonymous page's", async (t) => {
  const bo = await signUp('bo@example.com', 'Bo Visitor');
  const cy = await signUp('cy@example.com', 'Cy Visitor');
  for (const path of ['/', '/th/asdas/rtp-explained']) {
    const anonymous = await page(path);
    const first = await page(path, bo);
    const second = await page(path, cy);
    const again = await page(path, bo);
    t.match(first.body, 'Bo Visitor', `${path}: Bo sees his name`);
    t.match(second.body, 'Cy Visitor', `${path}: Cy sees hers`);
    t.notMatch(second.body, /Bo Visitor|bo@example\.com/, `${path}: nothing of Bo's in Cy's page`);
    t.match(second.body, 'cy@example.com', `${path}: Cy's own data in the page state`);
    t.equal(again.body, first.body, `${path}: Bo's page again, the same`);
    t.notMatch(anonymous.body, /Visitor|data-testid="logout"/, `${path}: the anonymous page has no one's parts`);
    t.match(anonymous.body, 'data-nav="login"', `${path}: and offers Log in`);
  }
  const home = await page('/', cy);
  t.match(home.body, 'data-entry="account"', "the home page's third card leads a player to the account");
  t.match((await page('/')).body, 'data-entry="registration"', 'and a newcomer to registration');
});

t.test('pages that are not shared render whole for each visitor', async (t) => {
  const cookie = await signUp('dee@example.com', 'Dee Visitor');
  const account = await page('/account', cookie);
  t.equal(account.statusCode, 200);
  t.match(account.body, 'dee@example.com', "the account page shows the visitor's own data");
  t.equal((await page('/account', cookie)).body, account.body, 'and the same again');
});

t.test('other spellings of a shared page are drawn whole for the visitor, and right', async (t) => {
  const cookie = await signUp('eve@example.com', 'Eve Visitor');
  for (const path of ['/bonus?utm_source=mail', '/bonus?x=1', '/th/bonus?x=2']) {
    const first = await page(path, cookie);
    t.equal(first.statusCode, 200, path);
    t.match(first.body, 'Eve Visitor', `${path}: the visitor's parts`);
    t.match(first.body, /class="language-link"[^>]*href="[^"]*\?/, `${path}: the language link keeps the query`);
    t.equal((await page(path, cookie)).body, first.body, `${path}: the same again`);
  }
});
