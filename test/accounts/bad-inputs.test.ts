import t from 'tap';
import { countRows, createTestDatabase, testBackends } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';

/**
 * Bad input across the auth routes: each gets its 4xx with the right code (and field code) and
 * leaves the database unchanged. Never a 500.
 */
interface BadInput {
  name: string;
  method?: 'GET' | 'POST';
  url: string;
  /** An object is sent as JSON; a string is sent as is, with `contentType`. */
  payload?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  fields?: Record<string, string>;
}

const existing = validRegistration({ email: 'taken.person@example.com', displayName: 'Existing' });
const register = (overrides: Record<string, unknown>) => validRegistration(overrides);
const without = (field: string) => {
  const body = validRegistration();
  delete body[field];
  return body;
};
const bidiOverride = '\u202E';
const zeroWidthSpace = '\u200B';
const zeroWidthJoiner = '\u200D';

const cases: BadInput[] = [
  // Missing fields
  ...['email', 'password', 'displayName', 'locale', 'acceptTerms', 'confirmAge'].map((field): BadInput => ({
    name: `register without ${field}`,
    url: '/api/auth/register',
    payload: without(field),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { [field]: 'required' },
  })),
  {
    name: 'register with an extra field',
    url: '/api/auth/register',
    payload: register({ isAdmin: true }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { isAdmin: 'unknown_field' },
  },
  {
    name: 'register with __proto__',
    url: '/api/auth/register',
    payload: '{"email":"a@b.co","__proto__":{"admin":true}}',
    contentType: 'application/json',
    status: 400,
    code: 'MALFORMED_JSON',
  },
  // Wrong types
  {
    name: 'email as a number',
    url: '/api/auth/register',
    payload: register({ email: 12345 }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_type' },
  },
  {
    name: 'password as an array',
    url: '/api/auth/register',
    payload: register({ password: ['correct horse battery staple'] }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'invalid_type' },
  },
  {
    name: 'acceptTerms as the string "true"',
    url: '/api/auth/register',
    payload: register({ acceptTerms: 'true' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { acceptTerms: 'invalid_type' },
  },
  {
    name: 'confirmAge as 1',
    url: '/api/auth/register',
    payload: register({ confirmAge: 1 }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { confirmAge: 'invalid_type' },
  },
  {
    name: 'displayName as an object',
    url: '/api/auth/register',
    payload: register({ displayName: { first: 'A' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_type' },
  },
  {
    name: 'body is an array',
    url: '/api/auth/register',
    payload: '[1,2,3]',
    contentType: 'application/json',
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { body: 'invalid_type' },
  },
  {
    name: 'body is null',
    url: '/api/auth/register',
    payload: 'null',
    contentType: 'application/json',
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { body: 'required' },
  },
  {
    name: 'no body at all',
    url: '/api/auth/register',
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { body: 'required' },
  },
  // Rules
  {
    name: 'terms not accepted',
    url: '/api/auth/register',
    payload: register({ acceptTerms: false }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { acceptTerms: 'must_accept' },
  },
  {
    name: 'age not confirmed',
    url: '/api/auth/register',
    payload: register({ confirmAge: false }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { confirmAge: 'must_accept' },
  },
  {
    name: 'unknown locale',
    url: '/api/auth/register',
    payload: register({ locale: 'fr' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { locale: 'invalid_value' },
  },
  {
    name: 'email without @',
    url: '/api/auth/register',
    payload: register({ email: 'somchai.example.com' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email' },
  },
  {
    name: 'email without a dot in the domain',
    url: '/api/auth/register',
    payload: register({ email: 'somchai@localhost' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email' },
  },
  {
    name: 'email of 300 characters',
    url: '/api/auth/register',
    payload: register({
      email: `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(50)}.com`,
    }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'too_long' },
  },
  {
    name: 'email of 5000 characters',
    url: '/api/auth/register',
    payload: register({ email: `${'a'.repeat(5000)}@example.com` }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'too_long' },
  },
  {
    name: 'email with a zero-width joiner',
    url: '/api/auth/register',
    payload: register({ email: `som${zeroWidthJoiner}chai@example.com` }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email' },
  },
  {
    name: 'email with a lone surrogate',
    url: '/api/auth/register',
    payload:
      '{"email":"a\\ud800b@example.com","password":"correct horse battery staple","displayName":"A","locale":"en","acceptTerms":true,"confirmAge":true}',
    contentType: 'application/json',
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'malformed_text' },
  },
  {
    name: 'SQL injection in the email',
    url: '/api/auth/register',
    payload: register({ email: "' OR '1'='1'; DROP TABLE users; --" }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email' },
  },
  {
    name: 'script in the email',
    url: '/api/auth/register',
    payload: register({ email: '<script>alert(1)</script>@example.com' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email' },
  },
  {
    name: 'password of 7 characters',
    url: '/api/auth/register',
    payload: register({ password: 'Xk3#pq9' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'too_short' },
  },
  {
    name: 'password of 4 emoji (8 UTF-16 units, 4 characters)',
    url: '/api/auth/register',
    payload: register({ password: '🔑🔒🗝️🔐'.replace('\uFE0F', '') }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'too_short' },
  },
  {
    name: 'password of 129 characters',
    url: '/api/auth/register',
    payload: register({ password: 'ข'.repeat(129) }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'too_long' },
  },
  {
    name: 'password of 50 000 characters (body limit not reached)',
    url: '/api/auth/register',
    payload: register({ password: 'p'.repeat(50_000) }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'too_long' },
  },
  {
    name: 'common password',
    url: '/api/auth/register',
    payload: register({ password: 'Password123' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'common_password' },
  },
  {
    name: 'one character repeated',
    url: '/api/auth/register',
    payload: register({ password: 'zzzzzzzzzzzz' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'common_password' },
  },
  {
    name: 'password equal to the email',
    url: '/api/auth/register',
    payload: register({ email: 'kanya.s@example.com', password: 'Kanya.S@Example.com' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'same_as_email' },
  },
  {
    name: 'password equal to the local part',
    url: '/api/auth/register',
    payload: register({ email: 'kanyasrisuk@example.com', password: 'kanyasrisuk' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'same_as_email' },
  },
  {
    name: 'display name of spaces only',
    url: '/api/auth/register',
    payload: register({ displayName: '   ' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'too_short' },
  },
  {
    name: 'empty display name',
    url: '/api/auth/register',
    payload: register({ displayName: '' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'required' },
  },
  {
    name: 'display name of 51 characters',
    url: '/api/auth/register',
    payload: register({ displayName: 'ก'.repeat(51) }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'too_long' },
  },
  {
    name: 'display name with a bidi override',
    url: '/api/auth/register',
    payload: register({ displayName: `admin${bidiOverride}gnp.exe` }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_characters' },
  },
  {
    name: 'display name with a zero-width space',
    url: '/api/auth/register',
    payload: register({ displayName: `Som${zeroWidthSpace}chai` }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_characters' },
  },
  {
    name: 'display name with a NUL',
    url: '/api/auth/register',
    payload: register({ displayName: 'Som\u0000chai' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_characters' },
  },
  {
    name: 'display name with a newline',
    url: '/api/auth/register',
    payload: register({ displayName: 'Som\nchai' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_characters' },
  },
  {
    name: 'display name with a line separator',
    url: '/api/auth/register',
    payload: register({ displayName: 'Som\u2028chai' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { displayName: 'invalid_characters' },
  },
  {
    name: 'several bad fields at once',
    url: '/api/auth/register',
    payload: register({ email: 'nope', password: 'short', displayName: '', acceptTerms: false }),
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'invalid_email', password: 'too_short', displayName: 'required', acceptTerms: 'must_accept' },
  },
  // Duplicates, however the email is written
  {
    name: 'taken email in other case and spaces',
    url: '/api/auth/register',
    payload: register({ email: '  TAKEN.Person@EXAMPLE.com ' }),
    status: 409,
    code: 'EMAIL_TAKEN',
    fields: { email: 'taken' },
  },
  {
    name: 'taken IDN email, decomposed (NFD) vs composed',
    url: '/api/auth/register',
    payload: register({ email: 'someone@cafe\u0301.example' }),
    status: 409,
    code: 'EMAIL_TAKEN',
    fields: { email: 'taken' },
  },
  {
    name: 'taken IDN email, as punycode',
    url: '/api/auth/register',
    payload: register({ email: 'someone@xn--caf-dma.example' }),
    status: 409,
    code: 'EMAIL_TAKEN',
    fields: { email: 'taken' },
  },
  // Transport
  {
    name: 'malformed JSON',
    url: '/api/auth/register',
    payload: '{"email": "a@b.co",',
    contentType: 'application/json',
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    name: 'text/plain body',
    url: '/api/auth/register',
    payload: JSON.stringify(validRegistration()),
    contentType: 'text/plain',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'form-encoded body',
    url: '/api/auth/login',
    payload: 'email=a%40b.co&password=12345678',
    contentType: 'application/x-www-form-urlencoded',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'body over the limit',
    url: '/api/auth/register',
    payload: register({ displayName: 'x'.repeat(70_000) }),
    status: 413,
    code: 'BODY_TOO_LARGE',
  },
  // Login
  {
    name: 'login without a password',
    url: '/api/auth/login',
    payload: { email: 'taken.person@example.com' },
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'required' },
  },
  {
    name: 'login with an empty email',
    url: '/api/auth/login',
    payload: { email: '', password: 'whatever123' },
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { email: 'required' },
  },
  {
    name: 'login with an extra field',
    url: '/api/auth/login',
    payload: { email: 'taken.person@example.com', password: 'x', remember: true },
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { remember: 'unknown_field' },
  },
  {
    name: 'login with a numeric password',
    url: '/api/auth/login',
    payload: { email: 'taken.person@example.com', password: 12345678 },
    status: 400,
    code: 'VALIDATION_FAILED',
    fields: { password: 'invalid_type' },
  },
  {
    name: 'login with SQL injection in the email',
    url: '/api/auth/login',
    payload: { email: "admin'--", password: "' OR 1=1 --" },
    status: 401,
    code: 'INVALID_CREDENTIALS',
  },
  {
    name: 'login with SQL injection in the password',
    url: '/api/auth/login',
    payload: { email: 'taken.person@example.com', password: "x' OR '1'='1" },
    status: 401,
    code: 'INVALID_CREDENTIALS',
  },
  {
    name: 'login with an unknown email',
    url: '/api/auth/login',
    payload: { email: 'nobody@example.com', password: String(existing.password) },
    status: 401,
    code: 'INVALID_CREDENTIALS',
  },
  // me
  { name: 'me without a token', method: 'GET', url: '/api/auth/me', status: 401, code: 'UNAUTHENTICATED' },
  {
    name: 'me with a garbage Bearer token',
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: 'Bearer abc' },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'me with SQL injection as the token',
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: "Bearer ' OR 1=1 --" },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'me with a well-formed unknown token',
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${'A'.repeat(43)}` },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'me with a Basic header',
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: 'Basic dXNlcjpwYXNz' },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'me with a script as the token cookie',
    method: 'GET',
    url: '/api/auth/me',
    headers: { cookie: 'token=%3Cscript%3Ealert(1)%3C%2Fscript%3E' },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
];

t.ok(cases.length >= 30, `${cases.length} bad inputs`);

for (const backend of testBackends()) {
  t.test(`bad inputs on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const app = await buildTestApp({ database });
    t.teardown(() => app.close());

    t.equal((await app.inject({ method: 'POST', url: '/api/auth/register', payload: existing })).statusCode, 201);
    const idn = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: validRegistration({ email: 'someone@café.example' }),
    });
    t.equal(idn.statusCode, 201);
    t.equal(idn.json().user.email, 'someone@xn--caf-dma.example', 'IDN domains are stored in ASCII');

    for (const item of cases) {
      t.test(item.name, async (t) => {
        const before = await countRows(database.db);
        const headers: Record<string, string> = { ...item.headers };
        if (item.contentType) headers['content-type'] = item.contentType;
        const response = await app.inject({
          method: item.method ?? 'POST',
          url: item.url,
          headers,
          ...(item.payload === undefined ? {} : { payload: item.payload as string | object }),
        });
        t.equal(response.statusCode, item.status, 'status');
        const body = response.json();
        t.equal(body.statusCode, item.status);
        t.equal(body.code, item.code, 'code');
        t.type(body.message, 'string');
        t.notMatch(body.message, /FST_|content-type is set to|Unexpected token|Body cannot be empty/, 'in our words');
        if (item.fields) t.same(body.fields, item.fields, 'field codes');
        t.notOk(response.headers['set-cookie'], 'no cookie');
        t.same(await countRows(database.db), before, 'database unchanged');
      });
    }
  });
}
