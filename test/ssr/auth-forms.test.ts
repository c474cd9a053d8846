import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { formClient, sessionCookie, sessionToken } from '../helpers/forms.ts';

// The account pages as a browser without JavaScript uses them: plain form posts.
const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);

const origin = 'http://localhost:3000';
const { post, postJson, page } = formClient(app, origin);

const newcomer = {
  email: 'Somchai@Example.com',
  displayName: 'Somchai <script>alert(1)</script>',
  password: 'a long passphrase 42',
  acceptTerms: 'on',
  confirmAge: 'on',
};

t.test('registration without JavaScript: errors keep the typed values (never the password)', async (t) => {
  const response = await post('/th/registration', { ...newcomer, password: 'short', confirmAge: '' });
  t.equal(response.statusCode, 400);
  t.match(response.body, /<html lang="th"/);
  t.match(response.body, /value="Somchai@Example.com"/, 'email kept');
  t.match(response.body, /value="Somchai &lt;script&gt;alert\(1\)&lt;\/script&gt;"/, 'display name kept, escaped');
  t.notMatch(response.body, /value="short"/, 'the password is never sent back');
  t.match(response.body, /data-field-error="password"[^>]*>ข้อมูลสั้นเกินไป</, 'a translated message per field');
  t.match(response.body, /data-field-error="confirmAge"/);
  t.notOk(sessionCookie(response), 'no session');
});

let cookie = '';

t.test('registration without JavaScript: 303 onwards with the token cookie', async (t) => {
  const response = await post('/registration?redirect=%2Fbonus', newcomer);
  t.equal(response.statusCode, 303);
  t.equal(response.headers.location, '/bonus');
  const token = sessionCookie(response);
  t.ok(token?.value, 'token cookie set');
  t.equal((token as { path?: string }).path, '/');
  t.equal((token as { sameSite?: string }).sameSite, 'Lax');
  cookie = `token=${token!.value}`;
});

t.test('the header shows the display name and Log out from the first server render', async (t) => {
  const response = await page('/bonus', cookie);
  t.equal(response.statusCode, 200);
  t.match(
    response.body,
    /data-testid="signed-in">Signed in as Somchai &lt;script&gt;alert\(1\)&lt;\/script&gt;</,
    'escaped',
  );
  t.notMatch(response.body, /<script>alert\(1\)<\/script>/);
  t.match(response.body, /data-testid="logout"/);
  t.notMatch(response.body, /data-nav="login"/, 'no Login link once logged in');
  t.equal(response.headers['cache-control'], 'private, no-store');
});

t.test('a logged-in user opening login or registration is sent on', async (t) => {
  const login = await page('/login?redirect=%2Fasdas', cookie);
  t.equal(login.statusCode, 302);
  t.equal(login.headers.location, '/asdas');
  const registration = await page('/th/registration', cookie);
  t.equal(registration.headers.location, '/th');
  const hostile = await page('/login?redirect=%2F%2Fevil.example%2Fx', cookie);
  t.equal(hostile.statusCode, 302);
  t.notMatch(String(hostile.headers.location), /evil/, 'never an open redirect');
});

t.test('taken email: the form says so', async (t) => {
  const response = await post('/registration', { ...newcomer, email: 'somchai@example.com' });
  t.equal(response.statusCode, 409);
  t.match(response.body, /data-field-error="email"[^>]*>An account with this email already exists/);
});

t.test('logout without JavaScript revokes the session and clears the cookie', async (t) => {
  const response = await post('/logout', {}, cookie);
  t.equal(response.statusCode, 303);
  t.equal(response.headers.location, '/');
  t.equal(sessionCookie(response)?.value, '', 'cookie cleared');
  const after = await page('/bonus', cookie);
  t.match(after.body, /data-nav="login"/, 'the old cookie no longer logs in');
  const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${cookie.slice(6)}` } });
  t.equal(me.statusCode, 401, 'revoked for the API too');
});

t.test('login without JavaScript: wrong password, then success with the way back', async (t) => {
  const wrong = await post('/login?redirect=%2Fth%2Fasdas', { email: newcomer.email, password: 'nope nope nope' });
  t.equal(wrong.statusCode, 401);
  t.match(wrong.body, /The email or password is incorrect/);
  t.match(wrong.body, /value="Somchai@Example.com"/);
  const right = await post('/login?redirect=%2Fth%2Fasdas', { email: newcomer.email, password: newcomer.password });
  t.equal(right.statusCode, 303);
  t.equal(right.headers.location, '/th/asdas');
  t.ok(sessionCookie(right)?.value);
});

t.test('form posts from another site are refused', async (t) => {
  const response = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'email=a%40b.c&password=x',
  });
  t.equal(response.statusCode, 403);
});

t.test('too many logins from one address: a 429 page with Retry-After', async (t) => {
  const limited = await startTestApp({ PUBLIC_URL: origin, LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
  t.teardown(limited.close);
  const attempt = () =>
    limited.app.inject({
      method: 'POST',
      url: '/login',
      headers: { origin, host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=whatever+it+is',
    });
  await attempt();
  await attempt();
  const third = await attempt();
  t.equal(third.statusCode, 429);
  t.ok(Number(third.headers['retry-after']) > 0, 'Retry-After says when to come back');
  t.match(third.body, /Too many attempts/);
});

t.test('with JavaScript the same form and action answer JSON: the outcome, never a redirect', async (t) => {
  const wrong = await postJson('/th/login', { email: newcomer.email, password: 'not the password' });
  t.equal(wrong.statusCode, 401);
  t.same(wrong.json(), { values: { email: newcomer.email }, errors: {}, message: 'INVALID_CREDENTIALS' });
  t.notOk(sessionCookie(wrong), 'no session');

  const right = await postJson('/th/login?redirect=%2Fth%2Fbonus', {
    email: newcomer.email,
    password: newcomer.password,
  });
  t.equal(right.statusCode, 200);
  t.match(right.json(), {
    redirect: '/th/bonus',
    flash: 'signedIn',
    user: { email: 'somchai@example.com', displayName: newcomer.displayName },
  });
  t.ok(sessionCookie(right)?.value, 'the same session cookie as without JavaScript');
  t.notOk(
    right.cookies.find((c) => c.name === 'flash'),
    'the notice travels in the answer, not a cookie',
  );

  const out = await postJson('/logout', {}, `token=${sessionCookie(right)!.value}`);
  t.same(out.json(), { redirect: '/', flash: 'signedOut', user: null });
  t.equal(sessionToken(out), '', 'the cookie is cleared');

  const notAForm = await postJson('/bonus', { a: '1' });
  t.equal(notAForm.statusCode, 405);
  t.equal(notAForm.json().code, 'METHOD_NOT_ALLOWED');
});
