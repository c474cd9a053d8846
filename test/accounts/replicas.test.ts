import t from 'tap';
import { createTestDatabase, postgresUrl } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, tokenCookie, validRegistration } from '../helpers/accounts.ts';

// Several replicas share one PostgreSQL: each opens its own pool from DATABASE_URL, as in production.
const skip = postgresUrl() ? false : 'two replicas need PostgreSQL: TEST_DATABASE_URL is not set';

t.test('two app instances on one PostgreSQL database', { skip }, async (t) => {
  const database = await createTestDatabase('postgres', { migrate: false });
  t.teardown(() => database.close());
  // Both start at once on an empty database: both migrate, one waits for the other.
  const [a, b] = await Promise.all([
    buildTestApp({ database, openFromConfig: true }),
    buildTestApp({ database, openFromConfig: true }),
  ]);
  t.teardown(() => Promise.all([a.close(), b.close()]));

  const me = (app: typeof a, token: string) => app.inject({ url: '/api/auth/me', headers: bearer(token) });
  const logout = (app: typeof a, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/auth/logout', headers });

  t.test('a session made on one replica, revoked on the other, is refused by the first', async (t) => {
    const response = await a.inject({ method: 'POST', url: '/api/auth/register', payload: validRegistration() });
    t.equal(response.statusCode, 201);
    const token = tokenCookie(response)!.value;
    t.equal((await me(a, token)).statusCode, 200);
    t.equal((await me(b, token)).statusCode, 200, 'the other replica knows it');
    t.equal((await logout(b, bearer(token))).statusCode, 204);
    t.equal((await me(a, token)).statusCode, 401, 'revoked everywhere at once');
    t.equal((await me(b, token)).statusCode, 401);
  });

  t.test('the same the other way round, for a session made by logging in', async (t) => {
    const body = validRegistration();
    t.equal((await b.inject({ method: 'POST', url: '/api/auth/register', payload: body })).statusCode, 201);
    const login = await b.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: body.password },
    });
    const token = tokenCookie(login)!.value;
    t.equal((await logout(a, bearer(token))).statusCode, 204);
    t.equal((await me(b, token)).statusCode, 401);
  });

  t.test('one email registered on both replicas at once: one 201, one 409', async (t) => {
    const body = validRegistration();
    const answers = await Promise.all([
      a.inject({ method: 'POST', url: '/api/auth/register', payload: body }),
      b.inject({ method: 'POST', url: '/api/auth/register', payload: body }),
    ]);
    t.same(answers.map((answer) => answer.statusCode).sort(), [201, 409]);
    t.equal(answers.find((answer) => answer.statusCode === 409)?.json().code, 'EMAIL_TAKEN');
  });
});
