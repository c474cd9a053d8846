/**
 * Text that is not text (issue 25, item 8), on each database: lone surrogates sent as JSON
 * escapes, bytes that are not UTF-8 in a JSON body and in a form posted without JavaScript, and
 * names smeared with combining marks. Each is refused with a 400 that names the field (or says
 * MALFORMED_TEXT), the pages say so in English and Thai, and nothing is stored or hashed with a
 * U+FFFD in its place: a password with a lone surrogate never collides with another password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { type Algorithm, hash } from '@node-rs/argon2';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { checkFormText, hasTooManyMarks, isWellFormedText, replaceInvalidUtf8 } from '../../lib/text.ts';
import { checkDisplayName, checkEmail, checkNewPassword } from '../../lib/auth/validation.ts';
import { PasswordHasher } from '../../lib/auth/passwords.ts';
import { bearer, relaxedRateLimits } from '../helpers/accounts.ts';
import { browserUserAgent } from '../helpers/app.ts';
import { createTestDatabase, snapshotDatabase, testBackends } from '../helpers/database.ts';
import { sessionToken } from '../helpers/forms.ts';

const origin = 'http://localhost:3000';
const password = 'correct horse battery staple';
/** "A" and 49 combining marks (accents above and below, overlays, enclosing marks). */
const zalgo = 'A' + Array.from({ length: 49 }, (_, index) => String.fromCodePoint(0x0300 + (index % 0x30))).join('');
/** Real names: Thai stacks a vowel and a tone mark on one consonant, Vietnamese two accents. */
const realNames = [
  'ผู้ใช้',
  'นํ้า',
  'สมชาย ใจดี',
  'กิ่งแก้ว ศรีสุข',
  'Nguyễn Thị Minh Khai',
  'Trần Hưng Đạo',
  'Lê Quý Đôn'.normalize('NFD'),
  'श्रीनिवास',
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The page shows `message` as the error of `field` (FormField's markup). */
const fieldError = (field: string, message: string) =>
  new RegExp(`data-field-error="${field}"[^>]*>${escapeRegExp(message)}<`);
const formMessage = (message: string) => new RegExp(`data-testid="form-message"[^>]*>${escapeRegExp(message)}<`);

t.test('the text checks', async (t) => {
  t.notOk(isWellFormedText('a\ud800b'), 'lone high surrogate');
  t.notOk(isWellFormedText('\udc01'), 'lone low surrogate');
  t.notOk(isWellFormedText('\ud83d'), 'half an emoji at the end');
  t.ok(isWellFormedText('😀 ผู้ใช้ \ufffd'), 'pairs, Thai, and U+FFFD itself are well-formed');
  t.notOk(hasTooManyMarks('x\u0334\u0335\u0336\u0337'), 'four marks on a character');
  t.ok(hasTooManyMarks('x\u0334\u0335\u0336\u0337\u0338'), 'five');
  for (const name of realNames) t.notOk(hasTooManyMarks(name.normalize('NFC')), name);
  t.same(checkEmail('a\ud800@example.com'), { code: 'malformed_text' });
  t.equal(checkNewPassword('correct horse\ud800battery', null), 'malformed_text');
  t.equal(
    checkNewPassword('correct horse\ufffdbattery', null),
    'malformed_text',
    'U+FFFD: what a surrogate is hashed as',
  );
  t.same(checkDisplayName('Som\ud800chai'), { code: 'malformed_text' });
  t.same(checkDisplayName('Som\ufffdchai'), { code: 'malformed_text' });
  t.same(checkDisplayName(zalgo), { code: 'too_many_marks' });
  t.same(
    checkDisplayName('Lê Quý Đôn'.normalize('NFD')),
    { value: 'Lê Quý Đôn' },
    'decomposed Vietnamese is stored composed',
  );
  t.equal(
    replaceInvalidUtf8(Buffer.from([0x61, 0xff, 0xe0, 0xb8, 0x81, 0xed, 0xa0, 0x80]), '?'),
    'a?ก???',
    'each bad byte replaced, the rest decoded',
  );
  t.same(checkFormText(Buffer.from('email=a%40b.co&displayName=%E0%B8%81')), null, 'escaped UTF-8 is fine');
  t.same(checkFormText(Buffer.from('email=a%40b.co&displayName=A%FF%FEB')), {
    fields: ['displayName'],
    unnamed: false,
  });
  t.same(
    checkFormText(Buffer.concat([Buffer.from('displayName=A'), Buffer.from([0xff, 0xfe]), Buffer.from('&password=x')])),
    { fields: ['displayName'], unnamed: false },
    'raw bytes',
  );
  t.same(
    checkFormText(Buffer.from('password=%ED%A0%80')),
    { fields: ['password'], unnamed: false },
    'the UTF-8 form of a surrogate is not UTF-8',
  );
  t.same(checkFormText(Buffer.from('%FF=1&email=a')), { fields: [], unnamed: true });
  const hasher = new PasswordHasher(testHashing);
  await t.rejects(hasher.hash('pass\ud800word'), 'a lone surrogate is never hashed');
  const stored = await hash('pass\ud800word', { ...testHashing, algorithm: 2 as Algorithm });
  t.equal(await hasher.verify(stored, 'pass\udc01word'), false);
  t.equal(await hasher.verify(stored, 'pass\ufffdword'), false, 'a hash made from a surrogate matches nothing');
});

for (const backend of testBackends()) {
  t.test(backend, async (t) => {
    const database = await createTestDatabase(backend);
    const dataDir = mkdtempSync(join(tmpdir(), 'asdas-text-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const app: FastifyInstance = await buildApp({
      config,
      database: { db: database.db },
      // No sliding expiry within the test: a session lookup must not write, so snapshots compare.
      accounts: { passwordHashing: testHashing, touchIntervalMs: 24 * 60 * 60 * 1000, sweepIntervalMs: 0 },
      rateLimits: { limits: relaxedRateLimits },
    });
    t.teardown(async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await app.ready();

    /** A JSON body exactly as given (escapes and bytes untouched). */
    const json = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: string | Buffer, token?: string) =>
      app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
        payload,
      });
    /** A form posted without JavaScript, its body exactly as given. */
    const form = (url: string, payload: string | Buffer, token?: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          origin,
          host: new URL(origin).host,
          'user-agent': browserUserAgent,
          'content-type': 'application/x-www-form-urlencoded',
          ...(token ? { cookie: `token=${token}` } : {}),
        },
        payload,
      });
    const bytes = (...parts: Array<string | number[]>) =>
      Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    const registration = (overrides: Record<string, unknown> = {}) => ({
      email: `text.${randomUUID()}@example.com`,
      password,
      displayName: 'Somchai',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
      ...overrides,
    });
    const register = async (overrides: Record<string, unknown> = {}) => {
      const body = registration(overrides);
      const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
      t.equal(response.statusCode, 201, `registered ${String(body.displayName)}`);
      await app.jobs.settled();
      return {
        ...body,
        token: sessionToken(response)!,
        user: response.json().user as { id: string; displayName: string },
      };
    };
    /** 400 VALIDATION_FAILED with `malformed_text` on exactly these fields. */
    const refusedAsMalformed = (t: Test, response: LightMyRequestResponse, ...fields: string[]) => {
      t.equal(response.statusCode, 400);
      t.match(response.json(), {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        fields: Object.fromEntries(fields.map((field) => [field, 'malformed_text'])),
      });
      t.same(Object.keys(response.json().fields ?? {}).sort(), [...fields].sort(), 'only those fields');
      t.notOk(sessionToken(response), 'no session');
    };
    /** Runs `requests`, then proves the database holds what it held before. */
    const unchanged = async (t: Test, requests: () => Promise<void>) => {
      const before = await snapshotDatabase(database.db);
      await requests();
      await app.jobs.settled();
      t.equal(await snapshotDatabase(database.db), before, 'nothing stored');
    };

    const account = await register({ displayName: 'Existing' });

    t.test('lone surrogates (JSON escapes) at registration: 400 naming the field, nothing stored', async (t) => {
      await unchanged(t, async () => {
        const base = JSON.stringify(registration());
        for (const [field, escaped] of [
          ['email', '"a\\ud800b@example.com"'],
          ['password', '"correct horse\\ud800battery staple"'],
          ['displayName', '"Som\\ud800chai"'],
          ['displayName', '"Som\\udc01chai"'],
          ['displayName', '"\\ud83d"'],
        ] as const) {
          const payload = base.replace(new RegExp(`"${field}":"[^"]*"`), `"${field}":${escaped}`);
          refusedAsMalformed(t, await json('POST', '/api/auth/register', payload), field);
        }
        // Each field with its own surrogate: each named.
        const all = JSON.stringify(
          registration({ email: 'a\ud800@example.com', password: 'pass\udc00word long', displayName: 'x\udbff' }),
        );
        t.match(all, /\\ud800/, 'sent as an escape');
        refusedAsMalformed(t, await json('POST', '/api/auth/register', all), 'email', 'password', 'displayName');
        // In a key, and nested in a value.
        const inKey = await json('POST', '/api/auth/register', base.replace('"locale"', '"lo\\ud800cale"'));
        t.equal(inKey.statusCode, 400);
        const nested = await json(
          'POST',
          '/api/auth/register',
          base.replace(/"displayName":"[^"]*"/, '"displayName":["\\ud800"]'),
        );
        refusedAsMalformed(t, nested, 'displayName');
      });
    });

    t.test('the collision: a password with a lone surrogate is refused, and matches nothing', async (t) => {
      const email = `collide.${randomUUID()}@example.com`;
      await unchanged(t, async () => {
        const refused = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ email, password: 'correct horse\ud800battery staple' }),
        });
        refusedAsMalformed(t, refused, 'password');
        const withFffd = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ email, password: 'correct horse\ufffdbattery staple' }),
        });
        refusedAsMalformed(t, withFffd, 'password');
      });
      for (const attempt of [
        'correct horse\ud800battery staple',
        'correct horse\udc01battery staple',
        'correct horse\ufffdbattery staple',
      ]) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: attempt },
        });
        t.not(login.statusCode, 200, 'no account was made');
        t.notOk(sessionToken(login));
      }

      // An account stored before this rule, its password hashed as the argon2 binding hashes a
      // lone surrogate (as U+FFFD): none of the colliding passwords logs in.
      const storedEmail = `stored.${randomUUID()}@example.com`;
      const storedHash = await hash('correct horse\ud800battery staple', { ...testHashing, algorithm: 2 as Algorithm });
      await database.db
        .insertInto('users')
        .values({
          id: randomUUID(),
          email: storedEmail,
          password_hash: storedHash,
          display_name: 'Stored',
          locale: 'en',
          accepted_terms_at: new Date(),
          age_confirmed_at: new Date(),
          created_at: new Date(),
        })
        .execute();
      await unchanged(t, async () => {
        const surrogate = await json(
          'POST',
          '/api/auth/login',
          `{"email":"${storedEmail}","password":"correct horse\\ud800battery staple"}`,
        );
        refusedAsMalformed(t, surrogate, 'password');
        const other = await json(
          'POST',
          '/api/auth/login',
          `{"email":"${storedEmail}","password":"correct horse\\udc01battery staple"}`,
        );
        refusedAsMalformed(t, other, 'password');
        const replacement = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: storedEmail, password: 'correct horse\ufffdbattery staple' },
        });
        t.equal(replacement.statusCode, 401, 'U+FFFD, the bytes the hash was made from: a failed login');
        t.equal(replacement.json().code, 'INVALID_CREDENTIALS');
        t.notOk(sessionToken(replacement));
        const formLogin = await form(
          '/login',
          `email=${encodeURIComponent(storedEmail)}&password=correct+horse%EF%BF%BDbattery+staple`,
        );
        t.equal(formLogin.statusCode, 401, 'nor without JavaScript');
        t.notOk(sessionToken(formLogin));
      });
    });

    t.test('lone surrogates at login: 400 naming the field, never a session', async (t) => {
      await unchanged(t, async () => {
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/auth/login',
            `{"email":"${account.email}","password":"correct horse\\ud800battery staple"}`,
          ),
          'password',
        );
        refusedAsMalformed(
          t,
          await json('POST', '/api/auth/login', `{"email":"\\udc00${account.email}","password":"${password}"}`),
          'email',
        );
      });
      const fine = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password },
      });
      t.equal(fine.statusCode, 200, 'the account itself still logs in');
    });

    t.test('lone surrogates in the account settings: profile, password, email, deletion', async (t) => {
      const user = await register({ displayName: 'Malee' });
      await unchanged(t, async () => {
        refusedAsMalformed(
          t,
          await json('PATCH', '/api/account/profile', '{"displayName":"Ma\\ud800lee"}', user.token),
          'displayName',
        );
        refusedAsMalformed(
          t,
          await json('PATCH', '/api/account/profile', '{"displayName":"Malee\\udfff","locale":"th"}', user.token),
          'displayName',
        );
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/account/password',
            `{"currentPassword":"${password}","newPassword":"a newer\\ud800passphrase"}`,
            user.token,
          ),
          'newPassword',
        );
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/account/password',
            `{"currentPassword":"${password}\\udc01","newPassword":"a newer passphrase 2"}`,
            user.token,
          ),
          'currentPassword',
        );
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/account/email',
            `{"currentPassword":"${password}","newEmail":"new\\ud800@example.com"}`,
            user.token,
          ),
          'newEmail',
        );
        refusedAsMalformed(
          t,
          await json('DELETE', '/api/account', `{"password":"${password}\\ud800"}`, user.token),
          'password',
        );
        // U+FFFD typed as such is well-formed, but never becomes a password.
        const replacement = await app.inject({
          method: 'POST',
          url: '/api/account/password',
          headers: bearer(user.token),
          payload: { currentPassword: password, newPassword: 'a newer \ufffd passphrase' },
        });
        t.equal(replacement.statusCode, 400);
        t.same(replacement.json().fields, { newPassword: 'malformed_text' });
        const zalgoProfile = await app.inject({
          method: 'PATCH',
          url: '/api/account/profile',
          headers: bearer(user.token),
          payload: { displayName: zalgo },
        });
        t.equal(zalgoProfile.statusCode, 400);
        t.same(zalgoProfile.json().fields, { displayName: 'too_many_marks' });
      });
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(user.token) });
      t.equal(me.json().user.displayName, 'Malee', 'the account is as it was');
    });

    t.test('lone surrogates in a password reset: the link stays usable', async (t) => {
      const user = await register({ displayName: 'Reset' });
      const issued = await app.passwordResets.service.issue(user.email);
      const token = issued!.token;
      await unchanged(t, async () => {
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/auth/password-reset/confirm',
            `{"token":"${token}","password":"a newer\\ud800passphrase"}`,
          ),
          'password',
        );
        refusedAsMalformed(
          t,
          await json('POST', '/api/auth/password-reset', `{"email":"\\ud800${user.email}"}`),
          'email',
        );
        const replacement = await app.inject({
          method: 'POST',
          url: '/api/auth/password-reset/confirm',
          payload: { token, password: 'a newer \ufffd passphrase' },
        });
        t.equal(replacement.statusCode, 400);
        t.same(replacement.json().fields, { password: 'malformed_text' });
        // Without JavaScript: the bytes of a surrogate (not UTF-8), then U+FFFD itself.
        const page = await form(
          `/th/reset-password?token=${token}`,
          `token=${token}&password=a+newer%ED%A0%80passphrase`,
        );
        t.equal(page.statusCode, 400);
        t.match(page.body, fieldError('password', th.form.errors.malformed_text));
        const typed = await form(
          `/reset-password?token=${token}`,
          `token=${token}&password=a+newer+%EF%BF%BD+passphrase`,
        );
        t.equal(typed.statusCode, 400);
        t.match(typed.body, fieldError('password', en.form.errors.malformed_text));
      });
      const used = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token, password: 'a newer passphrase 2' },
      });
      t.equal(used.statusCode, 200, 'the refused tries left the link usable');
    });

    t.test('bytes that are not UTF-8 in a JSON body: 400, nothing stored', async (t) => {
      await unchanged(t, async () => {
        const email = `bytes.${randomUUID()}@example.com`;
        const inName = bytes(
          `{"email":"${email}","password":"${password}","displayName":"A`,
          [0xff, 0xfe],
          `B","locale":"en","acceptTerms":true,"confirmAge":true}`,
        );
        refusedAsMalformed(t, await json('POST', '/api/auth/register', inName), 'displayName');
        const surrogateBytes = bytes(
          `{"email":"${email}","password":"correct horse`,
          [0xed, 0xa0, 0x80],
          ` battery","displayName":"A","locale":"en","acceptTerms":true,"confirmAge":true}`,
        );
        refusedAsMalformed(t, await json('POST', '/api/auth/register', surrogateBytes), 'password');
        const overlong = bytes(
          `{"email":"${email}","password":"${password}","displayName":"`,
          [0xc0, 0xaf],
          `","locale":"en","acceptTerms":true,"confirmAge":true}`,
        );
        refusedAsMalformed(t, await json('POST', '/api/auth/register', overlong), 'displayName');
        const truncated = bytes(
          `{"email":"${email}","password":"${password}","displayName":"ก`,
          [0xe0, 0xb8],
          `","locale":"en","acceptTerms":true,"confirmAge":true}`,
        );
        refusedAsMalformed(t, await json('POST', '/api/auth/register', truncated), 'displayName');
        const outside = await json('POST', '/api/auth/login', bytes(`{"email":"${email}","password":"x"}`, [0xff]));
        t.equal(outside.statusCode, 400);
        t.match(outside.json(), { statusCode: 400, code: 'MALFORMED_TEXT' }, 'not in a field: the body as a whole');
        refusedAsMalformed(
          t,
          await json(
            'POST',
            '/api/auth/login',
            bytes(`{"email":"${account.email}","password":"${password}`, [0xff], '"}'),
          ),
          'password',
        );
        refusedAsMalformed(
          t,
          await json('PATCH', '/api/account/profile', bytes('{"displayName":"Ma', [0xfe], 'lee"}'), account.token),
          'displayName',
        );
      });
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(account.token) });
      t.equal(me.json().user.displayName, 'Existing');
    });

    t.test(
      'bytes that are not UTF-8 in a form posted without JavaScript: the field says so, in both languages',
      async (t) => {
        const email = `form.${randomUUID()}@example.com`;
        await unchanged(t, async () => {
          for (const [path, messages] of [
            ['/registration', en],
            ['/th/registration', th],
          ] as const) {
            const raw = await form(
              path,
              bytes(
                `email=${encodeURIComponent(email)}&password=correct+horse+battery+staple&displayName=A`,
                [0xff, 0xfe],
                'B&acceptTerms=on&confirmAge=on',
              ),
            );
            t.equal(raw.statusCode, 400, `${path}: raw bytes`);
            t.match(raw.body, fieldError('displayName', messages.form.errors.malformed_text));
            t.match(raw.body, new RegExp(`value="${escapeRegExp(email)}"`), 'the email is kept');
            t.notOk(sessionToken(raw));
            const escaped = await form(
              path,
              `email=${encodeURIComponent(email)}&password=correct+horse+battery+staple&displayName=A%FF%FEB&acceptTerms=on&confirmAge=on`,
            );
            t.equal(escaped.statusCode, 400, `${path}: escaped as %FF`);
            t.match(escaped.body, fieldError('displayName', messages.form.errors.malformed_text));
            t.notMatch(escaped.body, /\ufffd/, 'no U+FFFD sent back either');
            const surrogate = await form(
              path,
              `email=${encodeURIComponent(email)}&password=correct+horse%ED%A0%80battery&displayName=Somchai&acceptTerms=on&confirmAge=on`,
            );
            t.match(
              surrogate.body,
              fieldError('password', messages.form.errors.malformed_text),
              `${path}: a surrogate's bytes in the password`,
            );
            t.notOk(sessionToken(surrogate));
            const unnamed = await form(
              path,
              `%FF%FE=1&email=${encodeURIComponent(email)}&password=correct+horse+battery+staple&displayName=Somchai&acceptTerms=on&confirmAge=on`,
            );
            t.equal(unnamed.statusCode, 400, `${path}: a field name that is not UTF-8`);
            t.match(unnamed.body, formMessage(messages.form.messages.MALFORMED_TEXT));
            const login = await form(
              path.replace('registration', 'login'),
              bytes(`email=${encodeURIComponent(account.email)}&password=correct+horse+battery+staple`, [0xff]),
            );
            t.equal(login.statusCode, 400, `${path}: login`);
            t.match(login.body, fieldError('password', messages.form.errors.malformed_text));
            t.notOk(sessionToken(login), 'no session');
            const profile = await form(
              path.replace('registration', 'account'),
              bytes('intent=profile&locale=en&displayName=Ex', [0xc3], 'isting'),
              account.token,
            );
            t.equal(profile.statusCode, 400, `${path}: profile`);
            t.match(profile.body, fieldError('displayName', messages.form.errors.malformed_text));
            const newPassword = await form(
              path.replace('registration', 'account'),
              `intent=password&currentPassword=correct+horse+battery+staple&newPassword=a+newer%F0%9F%98+passphrase`,
              account.token,
            );
            t.equal(newPassword.statusCode, 400, `${path}: password change`);
            t.match(newPassword.body, fieldError('newPassword', messages.form.errors.malformed_text));
          }
          t.not(en.form.errors.malformed_text, th.form.errors.malformed_text, 'two languages');
        });
        const me = await app.inject({ url: '/api/auth/me', headers: bearer(account.token) });
        t.equal(me.json().user.displayName, 'Existing');
      },
    );

    t.test('combining marks in names: at most four on a character', async (t) => {
      await unchanged(t, async () => {
        const refused = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ displayName: zalgo }),
        });
        t.equal(refused.statusCode, 400);
        t.same(refused.json().fields, { displayName: 'too_many_marks' });
        const five = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ displayName: 'Ax\u0334\u0335\u0336\u0337\u0338' }),
        });
        t.same(five.json().fields, { displayName: 'too_many_marks' }, 'five marks');
        const inDomain = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ email: `a@b${zalgo.slice(1, 30)}.example` }),
        });
        t.same(inDomain.json().fields, { email: 'too_many_marks' }, 'an internationalized domain is a name too');
        for (const [path, messages] of [
          ['/registration', en],
          ['/th/registration', th],
        ] as const) {
          const page = await form(
            path,
            `email=zalgo%40example.com&password=correct+horse+battery+staple&displayName=${encodeURIComponent(zalgo)}&acceptTerms=on&confirmAge=on`,
          );
          t.equal(page.statusCode, 400);
          t.match(page.body, fieldError('displayName', messages.form.errors.too_many_marks), path);
        }
        t.not(en.form.errors.too_many_marks, th.form.errors.too_many_marks);
      });
      const four = await register({ displayName: 'Ax\u0334\u0335\u0336\u0337' });
      t.equal(four.user.displayName, 'Ax\u0334\u0335\u0336\u0337', 'four marks');
      for (const name of realNames) {
        const created = await register({ displayName: name });
        t.equal(created.user.displayName, name.normalize('NFC'), `${name} is accepted`);
      }
      const thai = await form(
        '/th/account',
        `intent=profile&locale=th&displayName=${encodeURIComponent('ผู้ใช้ นํ้า')}`,
        account.token,
      );
      t.equal(thai.statusCode, 303, 'a Thai name without JavaScript');
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(account.token) });
      t.equal(me.json().user.displayName, 'ผู้ใช้ นํ้า');
    });
  });
}
