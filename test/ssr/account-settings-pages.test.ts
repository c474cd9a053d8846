import { join } from 'node:path';
import t from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { formClient, sessionToken } from '../helpers/forms.ts';
import { latestToken } from '../helpers/outbox.ts';

// The account's own pages without JavaScript: address verification, and the account page's
// forms (each a form post with an `intent`, answered 303 or with the errors).
const origin = 'http://localhost:3000';
const { app, close } = await startTestApp({ PUBLIC_URL: origin });
t.teardown(close);
const outbox = join(app.config.dataDir, 'outbox');

const { post, page } = formClient(app, origin);

let registrations = 0;
async function registered(email: string, locale: 'en' | 'th' = 'en') {
  registrations += 1;
  const response = await app.inject({
    // Each from its own address: registrations are limited per client.
    remoteAddress: `10.77.0.${registrations}`,
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email,
      password: 'a fine passphrase 1',
      displayName: 'Pim',
      locale,
      acceptTerms: true,
      confirmAge: true,
    },
    headers: { 'user-agent': browserUserAgent },
  });
  await app.jobs.settled();
  return `token=${response.cookies.find((cookie) => cookie.name === 'token')!.value}`;
}

t.test('verification: the account page shows the status; the link confirms with a button', async (t) => {
  const cookie = await registered('pim@example.com');
  const before = await page('/account', cookie);
  t.match(before.body, /data-testid="email-status" data-verified="false"/);
  t.match(before.body, /Not verified yet/);
  t.match(before.body, /data-testid="resend-verification"/);

  const token = await latestToken(outbox, 'pim@example.com', '/verify-email');
  const opened = await page(`/verify-email?token=${token}`);
  t.equal(opened.statusCode, 200);
  t.equal(opened.headers['cache-control'], 'no-store');
  t.match(opened.body, /Confirm my email address/);
  t.match(
    await page('/account', cookie).then((response) => response.body),
    /data-verified="false"/,
    'opening the link changes nothing',
  );

  const confirmed = await post(`/verify-email?token=${token}`, { token });
  t.equal(confirmed.statusCode, 303);
  t.equal(confirmed.headers.location, '/verify-email?done=1');
  const done = await page('/verify-email?done=1', cookie);
  t.match(done.body, /data-testid="email-verified"[^>]*>Thank you: your email address is confirmed\./);
  const after = await page('/account', cookie);
  t.match(after.body, /data-testid="email-status" data-verified="true"/);
  t.notMatch(after.body, /data-testid="resend-verification"/);

  const reused = await page(`/th/verify-email?token=${token}`);
  t.equal(reused.headers.location, '/th/verify-email?problem=used');
  const problem = await page('/th/verify-email?problem=used');
  t.match(problem.body, /<h1>ลิงก์นี้ถูกใช้ไปแล้ว<\/h1>/);
  t.match(problem.body, /href="\/th\/account"/, 'the way to a new link');
});

t.test('verification resend without JavaScript: 303 with a notice; once verified, a translated refusal', async (t) => {
  const cookie = await registered('kanya@example.com', 'th');
  const sent = await post('/th/account', { intent: 'resendVerification' }, cookie);
  t.equal(sent.statusCode, 303);
  t.equal(sent.headers.location, '/th/account?done=verification-sent');
  const notice = await page('/th/account?done=verification-sent', cookie);
  t.match(notice.body, /data-testid="account-done"[^>]*>ลิงก์ยืนยันใหม่กำลังส่งไปยังอีเมลของคุณ/);

  const token = await latestToken(outbox, 'kanya@example.com', '/verify-email');
  t.equal((await post(`/th/verify-email?token=${token}`, { token })).statusCode, 303);
  const refused = await post('/th/account', { intent: 'resendVerification' }, cookie);
  t.equal(refused.statusCode, 409);
  t.match(refused.body, /อีเมลของคุณได้รับการยืนยันแล้ว/);

  const unknown = await post('/account', { intent: 'nonsense' }, cookie);
  t.equal(unknown.statusCode, 400, 'an unknown intent is a 400, nothing changes');
  const anonymous = await post('/account', { intent: 'resendVerification' });
  t.equal(anonymous.statusCode, 303);
  t.equal(anonymous.headers.location, '/login?redirect=%2Faccount');
});

t.test('details without JavaScript: name and language, with translated field errors', async (t) => {
  const cookie = await registered('somsak@example.com', 'th');
  const bad = await post('/th/account', { intent: 'profile', displayName: '', locale: 'th' }, cookie);
  t.equal(bad.statusCode, 400);
  t.match(bad.body, /data-field-error="displayName"[^>]*>กรุณากรอกข้อมูลในช่องนี้|data-field-error="displayName"/);
  t.match(bad.body, /data-summary-field="displayName"/, 'the error summary links to the field');
  const saved = await post('/th/account', { intent: 'profile', displayName: 'Somsak J', locale: 'en' }, cookie);
  t.equal(saved.statusCode, 303);
  t.equal(saved.headers.location, '/th/account?done=profile-saved');
  const page2 = await page('/account', cookie);
  t.match(page2.body, /value="Somsak J"/);
  t.match(
    page2.body,
    /<input type="radio" name="locale" checked="" value="en"\/>/,
    'English is now the preferred language',
  );
});

t.test('password without JavaScript: the current one first; other sessions end, this one stays', async (t) => {
  const cookie = await registered('nid@example.com');
  const other = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'nid@example.com', password: 'a fine passphrase 1' },
  });
  const otherCookie = `token=${sessionToken(other)}`;
  const wrong = await post(
    '/account',
    { intent: 'password', currentPassword: 'nope nope nope', newPassword: 'a newer passphrase 2' },
    cookie,
  );
  t.equal(wrong.statusCode, 400);
  t.match(wrong.body, /data-field-error="currentPassword"[^>]*>This password is not right\./);
  t.notMatch(wrong.body, /nope nope nope|a newer passphrase 2/, 'passwords are never sent back');
  const changed = await post(
    '/account',
    { intent: 'password', currentPassword: 'a fine passphrase 1', newPassword: 'a newer passphrase 2' },
    cookie,
  );
  t.equal(changed.headers.location, '/account?done=password-changed');
  t.match(
    (await page('/account?done=password-changed', cookie)).body,
    /data-testid="account-done"[^>]*>Your password is changed/,
  );
  t.match((await page('/bonus', otherCookie)).body, /data-nav="login"/, 'the other device is logged out');
});

t.test('email change without JavaScript: pending on the account page, confirmed by the link page', async (t) => {
  const cookie = await registered('old.address@example.com');
  const asked = await post(
    '/account',
    { intent: 'email', newEmail: 'new.address@example.com', currentPassword: 'a fine passphrase 1' },
    cookie,
  );
  t.equal(asked.statusCode, 303);
  t.equal(asked.headers.location, '/account?done=email-change-sent');
  const pending = await page('/account', cookie);
  t.match(
    pending.body,
    /data-testid="pending-email"[^>]*>Waiting for confirmation: we sent a link to new\.address@example\.com/,
  );
  t.match(pending.body, /data-testid="account-email">old\.address@example\.com/);

  await app.jobs.settled();
  const token = await latestToken(outbox, 'new.address@example.com', '/confirm-email');
  const opened = await page(`/confirm-email?token=${token}`);
  t.equal(opened.statusCode, 200);
  t.equal(opened.headers['cache-control'], 'no-store');
  t.match(opened.body, /Use this email address/);
  const confirmed = await post(`/confirm-email?token=${token}`, { token });
  t.equal(confirmed.headers.location, '/confirm-email?done=1');
  t.match((await page('/confirm-email?done=1', cookie)).body, /data-testid="email-changed"/);
  const after = await page('/account', cookie);
  t.match(after.body, /data-testid="account-email">new\.address@example\.com/);
  t.notMatch(after.body, /data-testid="pending-email"/);
  t.equal((await page(`/confirm-email?token=${token}`)).headers.location, '/confirm-email?problem=used');
});

t.test('sessions without JavaScript: listed in words, this one marked; end one, then all others', async (t) => {
  const cookie = await registered('devices@example.com');
  const phone = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'devices@example.com', password: 'a fine passphrase 1' },
    headers: {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    },
  });
  const tablet = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'devices@example.com', password: 'a fine passphrase 1' },
  });
  const listed = await page('/th/account', cookie);
  t.equal((listed.body.match(/data-testid="login-session"/g) ?? []).length, 3);
  t.match(
    listed.body,
    /data-current="true"[\s\S]*?<strong>Chrome บน Linux<\/strong><span class="badge badge-ok">อุปกรณ์นี้<\/span>/,
  );
  t.match(listed.body, /<strong>Safari บน iOS<\/strong>/);
  const phoneId = /name="sessionId" value="([^"]+)"/.exec(listed.body.slice(listed.body.indexOf('Safari บน iOS')))?.[1];
  t.ok(phoneId);
  const ended = await post('/th/account', { intent: 'endSession', sessionId: phoneId! }, cookie);
  t.equal(ended.headers.location, '/th/account?done=session-ended');
  t.match((await page('/bonus', `token=${sessionToken(phone)}`)).body, /data-nav="login"/);
  const missing = await post('/account', { intent: 'endSession', sessionId: phoneId! }, cookie);
  t.equal(missing.statusCode, 404);
  t.match(missing.body, /That session has already ended/);
  const others = await post('/account', { intent: 'endOtherSessions' }, cookie);
  t.equal(others.headers.location, '/account?done=other-sessions-ended');
  t.match((await page('/bonus', `token=${sessionToken(tablet)}`)).body, /data-nav="login"/);
  t.equal(((await page('/account', cookie)).body.match(/data-testid="login-session"/g) ?? []).length, 1);
});

t.test('deletion without JavaScript: the password, then home with a notice, logged out', async (t) => {
  const cookie = await registered('leaving@example.com');
  const wrong = await post('/account', { intent: 'deleteAccount', password: 'not it at all' }, cookie);
  t.equal(wrong.statusCode, 400);
  t.match(wrong.body, /data-field-error="password"[^>]*>This password is not right\./);
  const deleted = await post('/account', { intent: 'deleteAccount', password: 'a fine passphrase 1' }, cookie);
  t.equal(deleted.statusCode, 303);
  t.equal(deleted.headers.location, '/');
  t.equal(sessionToken(deleted), '', 'the session cookie is cleared');
  const flash = deleted.cookies.find((c) => c.name === 'flash');
  t.equal(flash?.value, 'accountDeleted');
  const home = await page('/', `flash=accountDeleted`);
  t.match(home.body, /Your account has been deleted\./);
  t.match((await page('/bonus', cookie)).body, /data-nav="login"/);
});

t.test('REQUIRE_VERIFIED_EMAIL_FOR_PLAY: Play pressed without JavaScript says why', async (t) => {
  const strict = await startTestApp({ PUBLIC_URL: origin, REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'true' });
  t.teardown(strict.close);
  const response = await strict.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: 'eager@example.com',
      password: 'a fine passphrase 1',
      displayName: 'Eager',
      locale: 'th',
      acceptTerms: true,
      confirmAge: true,
    },
  });
  const cookie = `token=${sessionToken(response)}`;
  const played = await strict.app.inject({
    method: 'POST',
    url: '/th/play',
    headers: { origin, host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: '',
  });
  t.equal(played.statusCode, 403);
  t.match(played.body, /โปรดยืนยันอีเมลของคุณก่อนเล่น/);
  t.match(played.body, /href="\/th\/account"/);
});
