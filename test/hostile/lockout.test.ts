/**
 * Strangers cannot lock an owner out of their account, with the production limits
 * (lib/rate-limit/settings.ts): wrong passwords slow down the address that typed them, a guesser
 * with many addresses stops at the account's limit while addresses the owner used still get in,
 * a completed password reset starts the strangers' counts afresh while keeping (and adding) the
 * addresses the owner proved, and reset requests by strangers never refuse the owner's own (202
 * as always; the emails are capped).
 */
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { rateLimitSettings } from '../../lib/rate-limit/settings.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, tokenCookie, validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase, testBackends } from '../helpers/database.ts';
import { messagesTo, tokenOf } from '../helpers/outbox.ts';

const production = rateLimitSettings(loadConfig({}));

for (const backend of testBackends()) {
  t.test(backend, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const app = await buildTestApp({ database, rateLimits: { limits: production } });
    t.teardown(() => app.close());
    const outbox = join(app.config.dataDir, 'outbox');

    const login = (ip: string, email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
    const register = async (ip: string) => {
      const body = validRegistration();
      t.equal(
        (await app.inject({ method: 'POST', url: '/api/auth/register', payload: body, remoteAddress: ip })).statusCode,
        201,
      );
      await app.jobs.settled();
      return { email: String(body.email), password: String(body.password) };
    };

    t.test('five wrong passwords from one address: that address waits, the owner elsewhere logs in', async (t) => {
      const owner = await register('10.20.0.1');
      for (let i = 0; i < 5; i += 1)
        t.equal((await login('203.0.113.5', owner.email, `wrong guess ${i}`)).statusCode, 401);
      t.equal(
        (await login('203.0.113.5', owner.email, owner.password)).statusCode,
        429,
        'the stranger waits, even with the right password',
      );
      t.equal(
        (await login('198.51.100.7', owner.email, owner.password)).statusCode,
        200,
        'the owner from a fresh address logs in',
      );
    });

    t.test('many addresses guessing: the account stops new addresses, not the ones its owner used', async (t) => {
      const owner = await register('10.21.0.1');
      t.equal((await login('10.21.0.2', owner.email, owner.password)).statusCode, 200, 'the owner logs in from home');
      const guesses = production.loginFailuresPerAccount.max;
      for (let i = 0; i < guesses; i += 1) {
        const response = await login(`172.16.${Math.floor(i / 200)}.${i % 200}`, owner.email, `wrong guess ${i}`);
        if (response.statusCode !== 401) t.fail(`guess ${i}: ${response.statusCode}`);
      }
      t.equal((await login('172.17.0.1', owner.email, 'another guess')).statusCode, 429, 'a new address is stopped');
      t.equal((await login('10.21.0.2', owner.email, owner.password)).statusCode, 200, 'home still logs in');

      t.test('a completed password reset starts every count afresh', async (t) => {
        t.equal(
          (
            await app.inject({
              method: 'POST',
              url: '/api/auth/password-reset',
              payload: { email: owner.email },
              remoteAddress: '172.17.0.1',
            })
          ).statusCode,
          202,
        );
        await app.jobs.settled();
        const [message] = (await messagesTo(outbox, owner.email)).filter((mail) =>
          mail.links.some((link) => link.includes('/reset-password?')),
        );
        const token = tokenOf(message!, '/reset-password');
        const newPassword = 'a brand new passphrase';
        const reset = await app.inject({
          method: 'POST',
          url: '/api/auth/password-reset/confirm',
          payload: { token, password: newPassword },
        });
        t.equal(reset.statusCode, 200);
        t.equal(
          (await login('172.17.0.1', owner.email, newPassword)).statusCode,
          200,
          'a new address logs in with the new password',
        );
      });
    });

    t.test('after a reset, the address that typed wrong passwords may try again', async (t) => {
      const owner = await register('10.22.0.1');
      for (let i = 0; i < 5; i += 1) await login('10.22.0.9', owner.email, `typo ${i}`);
      t.equal((await login('10.22.0.9', owner.email, owner.password)).statusCode, 429);
      t.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/password-reset',
            payload: { email: owner.email },
            remoteAddress: '10.22.0.9',
          })
        ).statusCode,
        202,
      );
      await app.jobs.settled();
      const [message] = (await messagesTo(outbox, owner.email)).filter((mail) =>
        mail.links.some((link) => link.includes('/reset-password?')),
      );
      const newPassword = 'the mailbox proves it';
      t.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/password-reset/confirm',
            payload: { token: tokenOf(message!, '/reset-password'), password: newPassword },
          })
        ).statusCode,
        200,
      );
      t.equal(
        (await login('10.22.0.9', owner.email, newPassword)).statusCode,
        200,
        'the mailbox proven, the same address logs in',
      );
    });

    /** 110 wrong passwords from 22 addresses: past the account's limit of 100. */
    async function strangersGuess(email: string, net: number) {
      for (let i = 0; i < 110; i += 1) {
        const response = await login(`172.${net}.${Math.floor(i / 5)}.${i % 5}`, email, `stranger ${i}`);
        if (response.statusCode !== 401 && response.statusCode !== 429) t.fail(`guess ${i}: ${response.statusCode}`);
      }
      t.equal((await login(`172.${net}.99.1`, email, 'one more')).statusCode, 429, "the account's limit is reached");
    }

    t.test('a password change keeps the addresses the owner used, and adds its own', async (t) => {
      const owner = await register('10.24.0.1');
      const signIn = await login('10.24.0.2', owner.email, owner.password);
      t.equal(signIn.statusCode, 200, 'the owner logs in from home');
      const newPassword = 'changed from the office';
      const changed = await app.inject({
        method: 'POST',
        url: '/api/account/password',
        headers: bearer(tokenCookie(signIn)!.value),
        payload: { currentPassword: owner.password, newPassword },
        remoteAddress: '10.24.0.3',
      });
      t.equal(changed.statusCode, 200, 'changed from the office');
      await strangersGuess(owner.email, 25);
      t.equal((await login('10.24.0.2', owner.email, newPassword)).statusCode, 200, 'home still logs in');
      t.equal((await login('10.24.0.3', owner.email, newPassword)).statusCode, 200, 'so does the office');
    });

    t.test('a completed reset keeps the addresses the owner used, and adds the one that completed it', async (t) => {
      const owner = await register('10.26.0.1');
      t.equal((await login('10.26.0.2', owner.email, owner.password)).statusCode, 200, 'the owner logs in from home');
      await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: owner.email },
        remoteAddress: '10.26.0.3',
      });
      await app.jobs.settled();
      const [message] = (await messagesTo(outbox, owner.email)).filter((mail) =>
        mail.links.some((link) => link.includes('/reset-password?')),
      );
      const newPassword = 'reset from a phone';
      const reset = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: tokenOf(message!, '/reset-password'), password: newPassword },
        remoteAddress: '10.26.0.3',
      });
      t.equal(reset.statusCode, 200, 'reset from a phone');
      await strangersGuess(owner.email, 27);
      t.equal((await login('10.26.0.2', owner.email, newPassword)).statusCode, 200, 'home still logs in');
      t.equal((await login('10.26.0.3', owner.email, newPassword)).statusCode, 200, 'so does the phone');
    });

    t.test("strangers' reset requests never refuse the owner's own", async (t) => {
      const owner = await register('10.23.0.1');
      const ask = (ip: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: { email: owner.email },
          remoteAddress: ip,
        });
      for (const ip of ['198.18.0.1', '198.18.0.2', '198.18.0.3'])
        t.equal((await ask(ip)).statusCode, 202, `a stranger at ${ip}`);
      const own = await ask('10.23.0.1');
      t.equal(own.statusCode, 202, "the owner's request is answered as always");
      await app.jobs.settled();
      const resets = (await messagesTo(outbox, owner.email)).filter((mail) =>
        mail.links.some((link) => link.includes('/reset-password?')),
      );
      t.equal(
        resets.length,
        production.passwordResetEmailsPerAddress.max,
        `the mailbox got ${production.passwordResetEmailsPerAddress.max} emails, not 4`,
      );
      const confirmed = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: tokenOf(resets.at(-1)!, '/reset-password'), password: 'owner chose this one' },
      });
      t.equal(confirmed.statusCode, 200, 'and any of their links sets a new password');
    });
  });
}
