import t from 'tap';
import { answerToEmptyForm, emptyFormErrors } from '../../contract/required-fields.ts';
import { startTestApp } from '../helpers/app.ts';
import { formClient, sessionToken } from '../helpers/forms.ts';

// With JavaScript the browser answers a form sent with nothing typed in it at once
// (contract/required-fields.ts): the server must give exactly that answer to the same form.

const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);
const { postJson } = formClient(app);

const registered = await postJson('/registration', {
  email: `required.${process.pid}@example.com`,
  password: 'correct horse battery staple',
  displayName: 'Required Fields',
  acceptTerms: 'on',
  confirmAge: 'on',
});
const cookie = `token=${sessionToken(registered)}`;

for (const [key, expected] of Object.entries(emptyFormErrors)) {
  t.test(`${key}: the server's answer to the empty form is the browser's`, async (t) => {
    const [page, intent] = key.split(':') as [string, string | undefined];
    // As a browser sends it: text fields empty, checkboxes left out.
    const form: Record<string, string> = intent ? { intent } : {};
    for (const [field, code] of Object.entries(expected)) if (code === 'required') form[field] = '';
    const response = await postJson(`/${page}`, form, page === 'account' ? cookie : undefined);
    t.equal(response.statusCode, 400);
    t.same(response.json<{ errors: Record<string, string> }>().errors, expected);
    t.same(answerToEmptyForm(page, new URLSearchParams(form)), expected, 'the browser answers the same');
  });
}

t.test('anything typed goes to the server', async (t) => {
  t.equal(answerToEmptyForm('login', new URLSearchParams({ email: 'a@example.com', password: '' })), null);
  t.equal(answerToEmptyForm('registration', new URLSearchParams({ acceptTerms: 'on' })), null, 'a ticked box too');
  t.equal(
    answerToEmptyForm('account', new URLSearchParams({ intent: 'profile', displayName: '' })),
    null,
    'a form not listed',
  );
});
