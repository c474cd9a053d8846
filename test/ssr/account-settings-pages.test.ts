import { join } from 'node:path';
import t from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { latestToken } from '../helpers/outbox.ts';

// The account's own pages without JavaScript: address verification, and the account page's
// forms (each a form post with an `intent`, answered 303 or with the errors).
const origin = 'http://localhost:3000';
const { app, close } = await startTestApp({ PUBLIC_URL: origin });
t.teardown(close);
const outbox = join(app.config.dataDir, 'outbox');

const post = (url: string, form: Record<string, string>, cookie?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      origin,
      host: 'localhost:3000',
      'user-agent': browserUserAgent,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });
const page = (url: string, cookie?: string) => app.inject({ url, headers: { 'user-agent': browserUserAgent, ...(cookie ? { cookie } : {}) } });

async function registered(email: string, locale: 'en' | 'th' = 'en') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'a fine passphrase 1', displayName: 'Pim', locale, acceptTerms: true, confirmAge: true },
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
  t.match(await page('/account', cookie).then((response) => response.body), /data-verified="false"/, 'opening the link changes nothing');

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
