import { join } from 'node:path';
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { formClient, sessionToken } from '../helpers/forms.ts';
import { latestToken } from '../helpers/outbox.ts';

// The forgotten-password pages as a browser without JavaScript uses them, and what the server
// does around the pages emailed links open (no-store, no secret in logs, problems as pages).
const origin = 'http://localhost:3000';
const { app, logs, close } = await startTestApp({ PUBLIC_URL: origin });
t.teardown(close);
const outbox = join(app.config.dataDir, 'outbox');

const { post, page } = formClient(app, origin);

const account = { email: 'malee@example.com', password: 'first passphrase 1', displayName: 'Malee' };
const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { ...account, locale: 'th', acceptTerms: true, confirmAge: true },
});
const firstSession = sessionToken(registered)!;

async function linkFromEmail(): Promise<string> {
  await app.jobs.settled();
  return latestToken(outbox, account.email, '/reset-password');
}

t.test('in production without SMTP_URL the start warns that emails go to the outbox', async (t) => {
  const warning = logs.find((line) => line.variable === 'SMTP_URL');
  t.ok(warning, 'a start-up warning names the variable');
  t.equal(warning?.level, 40, 'as a warning in production');
  t.match(warning?.msg, /SMTP_URL is not set: account emails .* are written as \.eml files to .*\/outbox\//);
  const where = logs.find((line) => line.outboxDir === outbox);
  t.match(where?.msg, /written as \.eml files to the outbox folder/, 'and where they go');
});

t.test('login links to the forgotten-password page, in both languages', async (t) => {
  const en = await page('/login');
  t.match(en.body, /<a[^>]*href="\/forgot-password"[^>]*>Forgot your password\?<\/a>/);
  const th = await page('/th/login');
  t.match(th.body, /<a[^>]*href="\/th\/forgot-password"[^>]*>ลืมรหัสผ่าน\?<\/a>/);
  const form = await page('/th/forgot-password');
  t.equal(form.statusCode, 200);
  t.match(form.body, /<title>ลืมรหัสผ่าน\? · Asdas<\/title>/);
  t.match(form.body, /name="email"/);
});

t.test('without JavaScript: the same 303 for a known and an unknown address', async (t) => {
  const known = await post('/forgot-password', { email: account.email });
  const unknown = await post('/forgot-password', { email: 'nobody.here@example.com' });
  t.equal(known.statusCode, 303);
  t.equal(known.headers.location, '/forgot-password?sent=1');
  t.equal(unknown.statusCode, 303);
  t.equal(unknown.headers.location, known.headers.location);
  const sent = await page(known.headers.location as string);
  t.match(sent.body, /data-testid="reset-sent"/);
  t.match(sent.body, /If an account uses that address/);
  t.notMatch(sent.body, /malee@example\.com/, 'the address is not repeated');

  const invalid = await post('/th/forgot-password', { email: 'not an address' });
  t.equal(invalid.statusCode, 400);
  t.match(invalid.body, /data-field-error="email"[^>]*>โปรดกรอกอีเมลให้ถูกต้อง/, 'a translated field error');
  t.match(invalid.body, /value="not an address"/, 'the typed value is kept');
});

t.test('the emailed link: a no-store form page; the token never reaches the logs', async (t) => {
  const token = await linkFromEmail();
  const opened = await page(`/th/reset-password?token=${token}`);
  t.equal(opened.statusCode, 200);
  t.equal(opened.headers['cache-control'], 'no-store', 'never cached anywhere');
  t.equal(opened.headers['referrer-policy'], 'same-origin', 'the address never goes to another site in a Referer');
  t.match(opened.body, /<html lang="th"/);
  t.match(opened.body, /name="password"/);
  t.match(opened.body, /ตั้งรหัสผ่านใหม่/);

  const logged = JSON.stringify(logs);
  t.notOk(logged.includes(token), 'no log line holds the token');
  t.match(logged, /reset-password\?token=\[redacted\]/, 'the URL is logged with the token redacted');
});

t.test(
  'without JavaScript: a refused password keeps the link usable; a good one logs in everywhere anew',
  async (t) => {
    const token = await linkFromEmail();
    const url = `/reset-password?token=${token}`;
    const short = await post(url, { token, password: 'short' });
    t.equal(short.statusCode, 400);
    t.equal(short.headers['cache-control'], 'no-store');
    t.match(short.body, /data-field-error="password"[^>]*>This is too short\./);
    t.notOk(sessionToken(short));

    const done = await post(url, { token, password: 'second passphrase 2' });
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, '/account?done=password-reset');
    const session = sessionToken(done);
    t.ok(session, 'logged in');
    const account = await page('/account?done=password-reset', `token=${session}`);
    t.equal(account.statusCode, 200);
    t.match(account.body, /data-testid="account-done"[^>]*>Your new password is set/);
    t.match(account.body, /data-testid="signed-in">Signed in as Malee</);

    const before = await page('/bonus', `token=${firstSession}`);
    t.match(before.body, /data-nav="login"/, 'the session from registration ended');

    const reused = await page(url);
    t.equal(reused.statusCode, 303, 'opening a used link again');
    t.equal(reused.headers.location, '/reset-password?problem=used');
    t.equal(reused.headers['cache-control'], 'no-store');
    const reusedPost = await post(url, { token, password: 'third passphrase 3' });
    t.equal(reusedPost.statusCode, 303);
    t.equal(reusedPost.headers.location, '/reset-password?problem=used');
  },
);

t.test('used, expired and altered links get a clear page in both languages', async (t) => {
  const altered = await page('/th/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  t.equal(altered.statusCode, 303);
  t.equal(altered.headers.location, '/th/reset-password?problem=invalid');
  const cases = [
    ['/reset-password?problem=used', 'used', 'This link has already been used'],
    ['/reset-password?problem=expired', 'expired', 'This link has expired'],
    ['/reset-password?problem=invalid', 'invalid', 'This link is not valid'],
    ['/reset-password', 'invalid', 'This link is not valid'],
    ['/th/reset-password?problem=expired', 'expired', 'ลิงก์นี้หมดอายุแล้ว'],
    ['/th/reset-password?problem=used', 'used', 'ลิงก์นี้ถูกใช้ไปแล้ว'],
  ] as const;
  for (const [url, problem, heading] of cases) {
    const response = await page(url);
    t.equal(response.statusCode, 200, url);
    t.match(response.body, new RegExp(`data-problem="${problem}"`));
    t.match(response.body, new RegExp(`<h1>${heading}</h1>`));
    t.match(response.body, /href="(\/th)?\/forgot-password"/, 'a way to ask for a new link');
    t.notMatch(response.body, /name="password"/);
  }
});
