import t from 'tap';
import { requiredFields } from '../../contract/required-fields.ts';
import { startTestApp } from '../helpers/app.ts';
import { sessionToken } from '../helpers/forms.ts';

// The browser refuses an empty required field at once (contract/required-fields.ts); the server
// must refuse the same fields the same way, so the early answer is never one the server would not give.

const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);

const origin = 'http://localhost:3000';
const asJson = (url: string, form: Record<string, string>, cookie?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      origin,
      host: 'localhost:3000',
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });

const registered = await asJson('/registration', {
  email: `required.${process.pid}@example.com`,
  password: 'correct horse battery staple',
  displayName: 'Required Fields',
  acceptTerms: 'on',
  confirmAge: 'on',
});
const cookie = `token=${sessionToken(registered)}`;

const pages: Record<string, string> = {
  login: '/login',
  register: '/registration',
  forgotPassword: '/forgot-password',
  account: '/account',
};

for (const [key, fields] of Object.entries(requiredFields)) {
  t.test(`${key}: the server answers "required" for ${fields.join(', ')}`, async (t) => {
    const [action, intent] = key.split(':') as [string, string | undefined];
    const form: Record<string, string> = intent ? { intent } : {};
    for (const field of fields) form[field] = '';
    const response = await asJson(pages[action]!, form, action === 'account' ? cookie : undefined);
    t.equal(response.statusCode, 400);
    const { errors } = response.json<{ errors: Record<string, string> }>();
    for (const field of fields) t.equal(errors[field], 'required', field);
  });
}
