import t from 'tap';
import { answerToEmptyForm } from '../../contract/required-fields.ts';
import { pageRoutes } from '../../contract/routes.ts';
import type { PageModule } from '../../client/router/route-objects.tsx';
import { startTestApp } from '../helpers/app.ts';
import { formClient, sessionToken } from '../helpers/forms.ts';

// With JavaScript the browser answers a form sent with nothing typed in it at once, as its page
// declares (`emptyFormErrors`): the server must give exactly that answer to the same form.

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

const declared: { path: string; intent: string; expected: Record<string, string> }[] = [];
for (const route of pageRoutes) {
  const page = (await import(`../../client/${route.module}`)) as PageModule;
  for (const [intent, expected] of Object.entries(page.emptyFormErrors ?? {})) {
    declared.push({ path: `/${route.path}`, intent, expected });
  }
}

t.same(
  [...new Set(declared.map(({ path }) => path))],
  ['/login', '/registration', '/forgot-password', '/account'],
  'the pages whose forms answer at once',
);

for (const { path, intent, expected } of declared) {
  t.test(`${path} ${intent}: the server's answer to the empty form is the page's`, async (t) => {
    // As a browser sends it: text fields empty, checkboxes left out.
    const form: Record<string, string> = intent ? { intent } : {};
    for (const [field, code] of Object.entries(expected)) if (code === 'required') form[field] = '';
    const response = await postJson(path, form, path === '/account' ? cookie : undefined);
    t.equal(response.statusCode, 400);
    t.same(response.json<{ errors: Record<string, string> }>().errors, expected);
    const byIntent = { [intent]: expected };
    t.same(answerToEmptyForm(byIntent, new URLSearchParams(form)), expected, 'the browser answers the same');
  });
}

t.test('anything typed goes to the server', async (t) => {
  const login = { '': { email: 'required', password: 'required' } };
  t.equal(answerToEmptyForm(login, new URLSearchParams({ email: 'a@example.com', password: '' })), null);
  const registration = { '': { acceptTerms: 'must_accept' } };
  t.equal(answerToEmptyForm(registration, new URLSearchParams({ acceptTerms: 'on' })), null, 'a ticked box too');
  const account = { email: { newEmail: 'required' } };
  t.equal(
    answerToEmptyForm(account, new URLSearchParams({ intent: 'profile', displayName: '' })),
    null,
    'a form not listed',
  );
  t.equal(answerToEmptyForm(undefined, new URLSearchParams()), null, 'a page that lists none');
});
