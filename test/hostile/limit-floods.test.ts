/**
 * Floods of other keys lock nobody out and reset no count (decision 0045), with the production
 * limits, in memory and in Redis: after 100,000 registrations from as many addresses a stranger
 * registers; after 100,000 reset requests for made-up emails an owner who never asked gets the
 * email, the owner who asked gets no fourth, and the flooding addresses still wait. Failed logins:
 * login-floods.test.ts.
 */
import { join } from 'node:path';
import t from 'tap';
import { validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase } from '../helpers/database.ts';
import {
  floodAddress,
  floodApp,
  floods,
  overflowLogged,
  production,
  send,
  stores,
  triesLeft,
} from '../helpers/floods.ts';
import { messagesTo } from '../helpers/outbox.ts';

const database = await createTestDatabase('sqlite');
t.teardown(() => database.close());

for (const store of stores) {
  t.test(`in ${store}`, async (t) => {
    const flood = floods[store];
    const logs: Record<string, unknown>[] = [];
    const app = await floodApp(t, store, database, logs);
    const post = (url: string, payload: object, ip: string) =>
      app.inject({ method: 'POST', url, payload, remoteAddress: ip }).then((response) => response.statusCode);
    const register = async (ip: string) => {
      const body = validRegistration();
      t.equal(await post('/api/auth/register', body, ip), 201, `registered from ${ip}`);
      return String(body.email);
    };

    t.test(`${flood} registrations from as many addresses`, async (t) => {
      await send(t, app, flood, (n) => ({ url: '/api/auth/register', payload: {}, ip: floodAddress(1, n) }), 400);
      await register('198.51.100.8');
      if (store === 'memory') {
        // Time stands still here, so the flood's minute is not over: four more, then 429.
        const ask = () => post('/api/auth/register', {}, floodAddress(1, flood - 1));
        await triesLeft(t, ask, production.registerPerIp.max - 1, 'a flooding address goes on from its count');
        t.ok(overflowLogged(logs, 'register-ip'), 'the log says register-ip counts some keys approximately');
      }
    });

    t.test(`${flood} reset requests for other emails, ten from each address`, async (t) => {
      const asked = await register('10.30.3.1');
      const never = await register('10.30.4.1');
      const reset = (email: string, ip: string) => post('/api/auth/password-reset', { email }, ip);
      for (let i = 0; i < 5; i += 1) t.equal(await reset(asked, '10.30.3.2'), 202);
      await send(
        t,
        app,
        flood,
        (n) => ({
          url: '/api/auth/password-reset',
          payload: { email: `reset${n}@example.net` },
          ip: floodAddress(2, Math.floor(n / 10)),
        }),
        202,
      );
      for (let i = 0; i < 5; i += 1) t.equal(await reset(asked, '10.30.3.3'), 202);
      t.equal(await reset(never, '198.51.100.9'), 202);
      t.equal(await reset('reset5@example.net', floodAddress(2, 0)), 429, 'a flooding address has used its ten');
      await app.jobs.settled();
      const outbox = join(app.config.dataDir, 'outbox');
      const resets = async (email: string) =>
        (await messagesTo(outbox, email)).filter((mail) =>
          mail.links.some((link) => link.includes('/reset-password?')),
        );
      t.equal((await resets(asked)).length, production.passwordResetEmailsPerAddress.max, 'no fourth email');
      t.equal((await resets(never)).length, 1, 'the owner who never asked gets one');
      if (store === 'memory')
        t.ok(overflowLogged(logs, 'password-reset-email'), 'the log says the reset emails count approximately');
    });
  });
}
