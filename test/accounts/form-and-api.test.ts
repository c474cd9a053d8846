import t from 'tap';
import { bearer, relaxedRateLimits, validRegistration } from '../helpers/accounts.ts';
import { startTestApp } from '../helpers/app.ts';
import { formClient } from '../helpers/forms.ts';

// One operation, two doors: what a page's form refuses, the JSON API refuses with the same codes.
const { app, close } = await startTestApp({}, { rateLimits: { limits: relaxedRateLimits } });
t.teardown(close);
const { postJson } = formClient(app);

const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: validRegistration() });
const { token } = registered.json<{ token: string }>();
const cookie = `token=${token}`;

interface Case {
  name: string;
  api: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; body: Record<string, unknown>; signedIn?: boolean };
  form: { url: string; fields: Record<string, string>; signedIn?: boolean };
}

const cases: Case[] = [
  {
    name: 'login, nothing typed',
    api: { method: 'POST', url: '/api/auth/login', body: { email: '', password: '' } },
    form: { url: '/login', fields: { email: '', password: '' } },
  },
  {
    name: 'login, no password field',
    api: { method: 'POST', url: '/api/auth/login', body: { email: 'ann@example.com' } },
    form: { url: '/login', fields: { email: 'ann@example.com' } },
  },
  {
    name: 'registration, every rule broken',
    api: {
      method: 'POST',
      url: '/api/auth/register',
      body: {
        email: 'not-an-address',
        password: 'short',
        displayName: '',
        locale: 'th',
        acceptTerms: false,
        confirmAge: false,
      },
    },
    form: { url: '/th/registration', fields: { email: 'not-an-address', password: 'short', displayName: '' } },
  },
  {
    name: 'password reset, not an address',
    api: { method: 'POST', url: '/api/auth/password-reset', body: { email: 'nope' } },
    form: { url: '/forgot-password', fields: { email: 'nope' } },
  },
  {
    name: 'profile, emptied',
    api: { method: 'PATCH', url: '/api/account/profile', body: { displayName: '', locale: '' }, signedIn: true },
    form: { url: '/account', fields: { intent: 'profile', displayName: '', locale: '' }, signedIn: true },
  },
  {
    name: 'new password, too short and no current one',
    api: {
      method: 'POST',
      url: '/api/account/password',
      body: { currentPassword: '', newPassword: 'short' },
      signedIn: true,
    },
    form: {
      url: '/account',
      fields: { intent: 'password', currentPassword: '', newPassword: 'short' },
      signedIn: true,
    },
  },
  {
    name: 'new email, not an address',
    api: {
      method: 'POST',
      url: '/api/account/email',
      body: { currentPassword: 'x', newEmail: 'nope' },
      signedIn: true,
    },
    form: { url: '/account', fields: { intent: 'email', currentPassword: 'x', newEmail: 'nope' }, signedIn: true },
  },
  {
    name: 'a break, no period chosen',
    api: { method: 'POST', url: '/api/account/self-exclusion', body: { period: '' }, signedIn: true },
    form: { url: '/account', fields: { period: '' }, signedIn: true },
  },
  {
    name: 'a break, a period not offered',
    api: { method: 'POST', url: '/api/account/self-exclusion', body: { period: '2y' }, signedIn: true },
    form: { url: '/account', fields: { period: '2y' }, signedIn: true },
  },
  {
    name: 'account deletion, no password',
    api: { method: 'DELETE', url: '/api/account', body: { password: '' }, signedIn: true },
    form: { url: '/account', fields: { intent: 'deleteAccount', password: '' }, signedIn: true },
  },
];

for (const { name, api, form } of cases) {
  t.test(name, async (t) => {
    const fromApi = await app.inject({
      method: api.method,
      url: api.url,
      payload: api.body,
      headers: api.signedIn ? bearer(token) : {},
    });
    const fromForm = await postJson(form.url, form.fields, form.signedIn ? cookie : undefined);
    t.equal(fromApi.statusCode, 400, 'the API refuses it');
    t.equal(fromForm.statusCode, 400, 'the form refuses it');
    const fields = fromApi.json<{ fields: Record<string, string> }>().fields;
    t.ok(Object.keys(fields).length > 0, 'the API names the fields');
    t.same(
      fromForm.json<{ errors: Record<string, string> }>().errors,
      fields,
      'the form names the same, with the same codes',
    );
  });
}

t.test('an empty login form counts against the address as an empty API login does', async (t) => {
  const { app: limited, close: closeLimited } = await startTestApp(
    {},
    { rateLimits: { limits: { loginPerIp: { max: 2, windowMs: 60_000 } } } },
  );
  t.teardown(closeLimited);
  const { postJson: postLimited } = formClient(limited);
  t.equal((await postLimited('/login', { email: '', password: '' })).statusCode, 400);
  t.equal((await limited.inject({ method: 'POST', url: '/api/auth/login', payload: {} })).statusCode, 400);
  const third = await postLimited('/login', { email: '', password: '' });
  t.equal(third.statusCode, 429, 'the third try from the address is refused, whichever door the first two used');
  t.equal((await limited.inject({ method: 'POST', url: '/api/auth/login', payload: {} })).statusCode, 429);
});
