import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url (43 characters). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** True for something shaped like a token we issued; anything else never reaches the database. */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && tokenPattern.test(value);
}

/** What the database keeps instead of the token: hex SHA-256 (the token is random, so no salt is needed). */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
