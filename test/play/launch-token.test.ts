import { createHmac, randomUUID } from 'node:crypto';
import t from 'tap';
import { addUtcMonths, selfExclusionEnd } from '../../lib/play/periods.ts';
import {
  checkLaunchToken,
  isExpired,
  launchTokenMaxLength,
  newLaunchPayload,
  signLaunchToken,
} from '../../lib/play/launch-token.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';
const now = new Date('2026-03-01T10:00:00Z');
const payload = newLaunchPayload(randomUUID(), randomUUID(), now, 60_000);
const token = signLaunchToken(payload, secret);

/** `token` with the character at `index` replaced by another base64url character. */
function flip(value: string, index: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const current = value[index]!;
  const other = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length]!;
  return value.slice(0, index) + other + value.slice(index + 1);
}

t.test('a token carries its payload and verifies with the same secret', async (t) => {
  t.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/, 'base64url(payload).base64url(hmac)');
  const [encoded] = token.split('.');
  t.same(JSON.parse(Buffer.from(encoded!, 'base64url').toString()), payload, 'payload is {jti, sub, sid, exp}');
  t.equal(payload.exp, Math.floor(now.getTime() / 1000) + 60, 'expires 60 s after issue (Unix seconds)');
  t.same(checkLaunchToken(token, secret, now), { ok: true, payload, expired: false });
  t.same(
    checkLaunchToken(token, Buffer.from(secret), now),
    { ok: true, payload, expired: false },
    'a Buffer key is the same key',
  );
});

t.test('a different secret is a bad signature', async (t) => {
  t.same(checkLaunchToken(token, `${secret}x`, now), { ok: false, reason: 'bad-signature' });
});

t.test('expiry: valid until exp, expired from exp on (reported after the signature is checked)', async (t) => {
  t.same(checkLaunchToken(token, secret, new Date(now.getTime() + 59_999)), { ok: true, payload, expired: false });
  t.notOk(isExpired(payload, new Date(now.getTime() + 59_999)));
  t.ok(isExpired(payload, new Date(now.getTime() + 60_000)));
  t.same(checkLaunchToken(token, secret, new Date(now.getTime() + 60_000)), { ok: true, payload, expired: true });
  t.same(checkLaunchToken(token, secret, new Date(now.getTime() + 86_400_000)), { ok: true, payload, expired: true });
});

t.test('tampering: every changed character of the payload or the signature is refused', async (t) => {
  const dot = token.indexOf('.');
  let payloadFlips = 0;
  let signatureFlips = 0;
  for (let index = 0; index < token.length; index += 1) {
    if (index === dot) continue;
    const result = checkLaunchToken(flip(token, index), secret, now);
    if (result.ok) t.fail(`accepted a token with character ${index} changed`);
    if (index < dot) payloadFlips += 1;
    else signatureFlips += 1;
  }
  t.ok(
    payloadFlips > 50 && signatureFlips === 43,
    `${payloadFlips} payload and ${signatureFlips} signature changes refused`,
  );

  // A changed byte in the payload: re-encoded so the form stays valid.
  const bytes = Buffer.from(token.slice(0, dot), 'base64url');
  bytes[10] = bytes[10]! ^ 0x01;
  t.same(checkLaunchToken(`${bytes.toString('base64url')}${token.slice(dot)}`, secret, now), {
    ok: false,
    reason: 'bad-signature',
  });
  // A changed byte in the signature.
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  signature[0] = signature[0]! ^ 0x80;
  t.same(checkLaunchToken(`${token.slice(0, dot)}.${signature.toString('base64url')}`, secret, now), {
    ok: false,
    reason: 'bad-signature',
  });
  // A longer expiry written by someone without the key.
  const forged = Buffer.from(JSON.stringify({ ...payload, exp: payload.exp + 3600 })).toString('base64url');
  t.same(checkLaunchToken(`${forged}${token.slice(dot)}`, secret, now), { ok: false, reason: 'bad-signature' });
});

t.test('a signature that decodes to the same bytes but is not the string we issued is refused', async (t) => {
  // The 43rd character of a 32-byte base64url value carries 2 unused bits: `A` and `B` can decode alike.
  const signature = token.slice(token.indexOf('.') + 1);
  const last = signature.at(-1)!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const value = alphabet.indexOf(last);
  const sibling = alphabet[(value & ~3) | ((value + 1) & 3)]!;
  const variant = `${token.slice(0, -1)}${sibling}`;
  t.same(Buffer.from(variant.split('.')[1]!, 'base64url'), Buffer.from(signature, 'base64url'), 'same bytes');
  t.same(checkLaunchToken(variant, secret, now), { ok: false, reason: 'bad-signature' });
});

t.test('malformed tokens are refused before anything is decoded', async (t) => {
  const cases: unknown[] = [
    undefined,
    null,
    42,
    {},
    '',
    '.',
    'abc',
    token.replace('.', ''),
    `${token}.x`,
    `${token}=`,
    token.replace('.', '..'),
    ` ${token}`,
    `${token}\n`,
    `+${token.slice(1)}`,
    `${token.slice(0, -1)}/`,
    `a${'b'.repeat(launchTokenMaxLength)}`,
    `${'A'.repeat(20)}.${'A'.repeat(43)}`,
  ];
  for (const value of cases) {
    const result = checkLaunchToken(value, secret, now);
    t.notOk(result.ok, `refused: ${JSON.stringify(value)?.slice(0, 40)}`);
  }
});

t.test('a well-signed payload of the wrong shape is malformed', async (t) => {
  // Signed with the real key, as signLaunchToken does, but with a payload it would never write.
  const sign = (value: unknown) => {
    const encoded = Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${encoded}.${createHmac('sha256', secret).update(encoded).digest('base64url')}`;
  };
  const good = { jti: randomUUID(), sub: randomUUID(), sid: randomUUID(), exp: payload.exp };
  t.ok(checkLaunchToken(sign(good), secret, now).ok, 'the helper signs like the real thing');
  for (const value of [
    { ...good, exp: '1' },
    { ...good, exp: 1.5 },
    { ...good, jti: 'not-a-uuid' },
    { ...good, extra: true },
    { jti: good.jti, sub: good.sub, exp: good.exp },
    [good],
    'text',
    null,
  ]) {
    t.same(
      checkLaunchToken(sign(value), secret, now),
      { ok: false, reason: 'malformed' },
      JSON.stringify(value).slice(0, 60),
    );
  }
});

t.test('self-exclusion periods', async (t) => {
  const from = new Date('2026-08-31T12:00:00Z');
  t.equal(selfExclusionEnd('24h', from).toISOString(), '2026-09-01T12:00:00.000Z');
  t.equal(selfExclusionEnd('7d', from).toISOString(), '2026-09-07T12:00:00.000Z');
  t.equal(selfExclusionEnd('30d', from).toISOString(), '2026-09-30T12:00:00.000Z');
  t.equal(selfExclusionEnd('6m', from).toISOString(), '2027-02-28T12:00:00.000Z', 'clamped to the end of February');
  t.equal(addUtcMonths(new Date('2027-08-31T00:00:00Z'), 6).toISOString(), '2028-02-29T00:00:00.000Z', 'leap year');
  t.equal(addUtcMonths(new Date('2026-01-15T08:30:00Z'), 6).toISOString(), '2026-07-15T08:30:00.000Z');
});
