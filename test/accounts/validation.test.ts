import t from 'tap';
import { commonPasswords, isCommonPassword } from '../../lib/auth/common-passwords.ts';
import { PasswordHasher, productionHashing, testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { hashSessionToken, isWellFormedToken, newSessionToken } from '../../lib/auth/tokens.ts';
import {
  checkDisplayName,
  checkEmail,
  checkNewPassword,
  codePointLength,
  normalizeEmail,
  validateRegistration,
} from '../../lib/auth/validation.ts';

t.test('emails are normalized: trimmed, NFC, lower-case, domain in ASCII', async (t) => {
  t.equal(normalizeEmail('  Somchai.J@Example.COM\t'), 'somchai.j@example.com');
  t.equal(normalizeEmail('a@CAFE\u0301.example'), 'a@xn--caf-dma.example', 'NFD domain');
  t.equal(normalizeEmail('a@café.example'), 'a@xn--caf-dma.example', 'NFC domain');
  t.equal(normalizeEmail('a@ตัวอย่าง.ไทย'), 'a@xn--72c1a1bt4awk9o.xn--o3cw4h', 'Thai IDN');
  t.equal(normalizeEmail('no-at-sign'), 'no-at-sign');
});

t.test('email format', async (t) => {
  for (const valid of [
    'a@b.co',
    'first.last+tag@sub.example.co.th',
    "o'brien@example.ie",
    'x@xn--o3cw4h.xn--o3cw4h',
    'x@ตัวอย่าง.ไทย',
  ]) {
    t.ok('value' in checkEmail(valid), valid);
  }
  const invalid: Array<[unknown, string]> = [
    [undefined, 'required'],
    ['   ', 'required'],
    [42, 'invalid_type'],
    ['plain', 'invalid_email'],
    ['@example.com', 'invalid_email'],
    ['a@', 'invalid_email'],
    ['a@b', 'invalid_email'],
    ['a@b.c', 'invalid_email'],
    ['a@-b.com', 'invalid_email'],
    ['a@b..com', 'invalid_email'],
    ['a..b@example.com', 'invalid_email'],
    ['.a@example.com', 'invalid_email'],
    ['a b@example.com', 'invalid_email'],
    ['"quoted"@example.com', 'invalid_email'],
    ['สมชาย@example.com', 'invalid_email'],
    ['a@123.456', 'invalid_email'],
    [`${'a'.repeat(65)}@example.com`, 'invalid_email'],
    [`a@${'b'.repeat(250)}.com`, 'too_long'],
    ['x'.repeat(2000), 'too_long'],
  ];
  for (const [input, code] of invalid) t.same(checkEmail(input), { code }, String(input).slice(0, 40));
});

t.test('new passwords', async (t) => {
  t.equal(checkNewPassword('correct horse battery staple', 'a@b.co'), null);
  t.equal(checkNewPassword('รหัสผ่านยาวพอ', 'a@b.co'), null, 'Thai');
  t.equal(checkNewPassword('🔑🔒'.repeat(64), null), null, '128 emoji are 128 characters');
  t.equal(checkNewPassword('🔑'.repeat(129), null), 'too_long');
  t.equal(checkNewPassword('🔑'.repeat(7), null), 'too_short', '14 UTF-16 units, 7 characters');
  t.equal(checkNewPassword('', null), 'required');
  t.equal(checkNewPassword(12345678, null), 'invalid_type');
  t.equal(checkNewPassword('Somchai.J@example.com ', 'somchai.j@example.com'), 'same_as_email');
  t.equal(checkNewPassword('SOMCHAI.J', 'somchai.j@example.com'), 'same_as_email');
  t.equal(checkNewPassword('qwertyuiop', null), 'common_password');
  t.equal(checkNewPassword('Summer2024', null), 'common_password');
  t.equal(checkNewPassword('........', null), 'common_password', 'one repeated character');
});

t.test('the common-password list', async (t) => {
  t.ok(commonPasswords.size >= 300, `${commonPasswords.size} entries`);
  t.ok([...commonPasswords].every((entry) => codePointLength(entry) >= 8 && entry === entry.toLowerCase()));
  for (const entry of ['password', '12345678', 'iloveyou', '1q2w3e4r', 'password1', 'qwerty123'])
    t.ok(isCommonPassword(entry), entry);
  t.ok(isCommonPassword('PassWord1'), 'case-insensitive');
  t.notOk(isCommonPassword('correct horse battery staple'));
});

t.test('display names', async (t) => {
  t.same(checkDisplayName('  สมชาย ใจดี  '), { value: 'สมชาย ใจดี' });
  t.same(checkDisplayName('Jose\u0301'), { value: 'José' }, 'NFC');
  t.same(
    checkDisplayName('<script>alert(1)</script>'),
    { value: '<script>alert(1)</script>' },
    'allowed: pages escape it',
  );
  t.same(
    checkDisplayName("Robert'); DROP TABLE users;--"),
    { value: "Robert'); DROP TABLE users;--" },
    'allowed: queries are parameterized',
  );
  t.same(checkDisplayName('ก'.repeat(50)), { value: 'ก'.repeat(50) });
  t.same(checkDisplayName('ก'.repeat(51)), { code: 'too_long' });
  t.same(checkDisplayName('😀'.repeat(50)), { value: '😀'.repeat(50) }, 'counted in characters');
  for (const bad of [
    '\u202Eevil',
    'a\u2066b',
    'a\u200Bb',
    'a\u200Db',
    'a\uFEFFb',
    'a\u00ADb',
    'a\tb',
    'a\u0007b',
    'a\uE000b',
    'a\u2029b',
  ]) {
    const hex = [...bad]
      .map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
      .join(' ');
    t.same(checkDisplayName(bad), { code: 'invalid_characters' }, hex);
  }
  // Text that is not text (a lone surrogate), or what such text turns into (U+FFFD): test/hostile/text.test.ts.
  t.same(checkDisplayName('a\uD800b'), { code: 'malformed_text' });
  t.same(checkDisplayName('a\uFFFDb'), { code: 'malformed_text' });
  t.same(checkDisplayName(''), { code: 'required' });
  t.same(checkDisplayName(' \u3000 '), { code: 'too_short' });
  t.same(checkDisplayName(null), { code: 'required' });
  t.same(checkDisplayName(['a']), { code: 'invalid_type' });
});

t.test('registration: every field at once', async (t) => {
  t.same(validateRegistration({}), {
    ok: false,
    fields: {
      email: 'required',
      password: 'required',
      displayName: 'required',
      locale: 'required',
      acceptTerms: 'required',
      confirmAge: 'required',
    },
  });
  const ok = validateRegistration({
    email: ' A@B.co ',
    password: 'correct horse battery staple',
    displayName: ' A ',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  });
  t.same(ok, {
    ok: true,
    value: { email: 'a@b.co', password: 'correct horse battery staple', displayName: 'A', locale: 'en' },
  });
});

t.test('tokens', async (t) => {
  const token = newSessionToken();
  t.match(token, /^[A-Za-z0-9_-]{43}$/);
  t.not(newSessionToken(), token);
  t.ok(isWellFormedToken(token));
  for (const bad of [undefined, null, '', 'short', `${token}x`, `${token.slice(0, 42)}=`, `${token.slice(0, 42)} `]) {
    t.notOk(isWellFormedToken(bad), String(bad));
  }
  t.match(hashSessionToken(token), /^[0-9a-f]{64}$/);
  t.equal(hashSessionToken(token), hashSessionToken(token));
});

t.test('password hashing', async (t) => {
  t.same(productionHashing, { memoryCost: 7168, timeCost: 5, parallelism: 1 }, 'the production parameters');
  const hasher = new PasswordHasher(testHashing);
  const hash = await hasher.hash('Jose\u0301 password');
  t.match(hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  t.ok(await hasher.verify(hash, 'José password'), 'NFC and NFD spellings match');
  t.notOk(await hasher.verify(hash, 'Jose password'));
  t.notOk(await hasher.verify('not a hash', 'x'), 'an unreadable hash is a failure, not an exception');
  t.notOk(hasher.needsRehash(hash));
  t.ok(new PasswordHasher(productionHashing).needsRehash(hash));
  t.ok(hasher.needsRehash('garbage'));
});

t.test('a password hashed with the earlier production setting still logs in, and is then rehashed', async (t) => {
  // Accounts registered before decision 0002's amendment hold hashes made with m=19 MiB, t=2.
  const earlier = await new PasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 }).hash(
    'correct horse battery staple',
  );
  t.match(earlier, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const hasher = new PasswordHasher(productionHashing);
  t.ok(await hasher.verify(earlier, 'correct horse battery staple'));
  t.notOk(await hasher.verify(earlier, 'correct horse battery stapler'));
  t.ok(hasher.needsRehash(earlier));
  const today = await hasher.hash('correct horse battery staple');
  t.match(today, /^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
  t.notOk(hasher.needsRehash(today));
});

t.test('password hashes beyond the concurrency wait their turn, and each still answers', async (t) => {
  t.equal(loadConfig({}).passwordHashConcurrency, 1, 'one at a time by default');
  t.equal(loadConfig({ PASSWORD_HASH_CONCURRENCY: '3' }).passwordHashConcurrency, 3);
  t.throws(() => loadConfig({ PASSWORD_HASH_CONCURRENCY: '0' }), /PASSWORD_HASH_CONCURRENCY/, 'at least one');

  const hasher = new PasswordHasher(testHashing, { concurrency: 1 });
  const passwords = ['first password', 'second password', 'third password'];
  const hashing = passwords.map((password) => hasher.hash(password));
  t.equal(hasher.waiting, 2, 'one runs, two wait');
  const hashes = await Promise.all(hashing);
  t.equal(hasher.waiting, 0);
  const checks = await Promise.all(hashes.map((hash, index) => hasher.verify(hash, passwords[index]!)));
  t.same(checks, [true, true, true], 'every queued hash is the hash of its own password');
  t.notOk(await hasher.verify(hashes[0]!, passwords[1]!));
});
