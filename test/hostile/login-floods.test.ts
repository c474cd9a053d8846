/**
 * Failed logins for 100,000 made-up accounts from as many addresses lock nobody out and reset no
 * count (decision 0045), with the production limits, in memory and in Redis: the owner logs in
 * from a fresh address, a guessed account from the address it registered from, and every limit a
 * flooding key filled still holds. In memory the limits past their room say so in the log.
 */
import t from 'tap';
import { validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase } from '../helpers/database.ts';
import {
  floodAddress,
  floodApp,
  floodPassword,
  floods,
  overflowLogged,
  production,
  send,
  stores,
  triesLeft,
} from '../helpers/floods.ts';

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
      return { email: String(body.email), password: String(body.password) };
    };
    const login = (ip: string, account: { email: string; password: string }) => post('/api/auth/login', account, ip);

    const owner = await register('10.30.0.1');
    const guessed = await register('10.30.1.1');
    for (let i = 0; i < production.loginFailuresPerAccount.max; i += 1) {
      const status = await login(`172.20.${i >> 8}.${i & 255}`, { ...guessed, password: `guess ${i}` });
      if (status !== 401) t.fail(`guess ${i}: ${status}`);
    }
    t.equal(await login('172.21.0.1', { ...guessed, password: 'x' }), 429, 'the guessed account stops new addresses');
    const full = '10.30.2.1';
    for (let i = 0; i < production.loginPerIp.max; i += 1) await login(full, { ...owner, password: `x${i}` });

    await send(
      t,
      app,
      flood,
      (n) => ({
        url: '/api/auth/login',
        payload: { email: `other${n}@example.net`, password: floodPassword },
        ip: floodAddress(0, n),
      }),
      401,
    );

    t.equal(await login('198.51.100.7', owner), 200, 'the owner logs in from a fresh address');
    t.equal(await login('10.30.1.1', guessed), 200, 'the guessed account from the address it registered from');
    t.equal(await login('172.21.0.2', { ...guessed, password: 'y' }), 429, 'and still stops new addresses');
    t.equal(await login(full, owner), 429, 'an address that used its logins before the flood still waits');
    const account = (n: number) => `other${n}@example.net`;
    for (const n of [1, flood / 2, flood - 1]) {
      // The flood's one failure still counts for its account and address: four more at most.
      const ask = (email: string) => () => login(floodAddress(0, n), { email, password: floodPassword });
      const sent = await triesLeft(
        t,
        ask(account(n)),
        production.loginFailuresPerAccountAndAddress.max - 1,
        `flood address ${n}, its account`,
      );
      // And its logins this minute (time stands still here): ten in all at most, the flood's one
      // and those just sent included (an approximate count may have refused one of them early).
      if (store === 'memory') {
        let other = 0;
        await triesLeft(
          t,
          () => ask(`${(other += 1)}.${account(n)}`)(),
          production.loginPerIp.max - 1 - sent,
          `flood address ${n}, its logins`,
        );
      }
    }
    if (store === 'memory')
      for (const limit of ['login-ip', 'login-account', 'login-account-ip'])
        t.ok(overflowLogged(logs, limit), `the log says ${limit} counts some keys approximately`);
  });
}
