import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** `base64url(JSON payload).base64url(HMAC-SHA256)`, both canonical (decision 0007); `exp` in seconds. */
export interface LaunchTokenPayload {
  jti: string;
  sub: string;
  sid: string;
  exp: number;
}

export type LaunchTokenCheck =
  { ok: true; payload: LaunchTokenPayload; expired: boolean } | { ok: false; reason: 'malformed' | 'bad-signature' };

/** Longer than any token we issue (~250 characters): refused before any decoding. */
export const launchTokenMaxLength = 1024;
const shape = /^([A-Za-z0-9_-]{16,1000})\.([A-Za-z0-9_-]{43})$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mac(secret: string | Buffer, encodedPayload: string): Buffer {
  return createHmac('sha256', secret).update(encodedPayload).digest();
}

export function signLaunchToken(payload: LaunchTokenPayload, secret: string | Buffer): string {
  const encoded = Buffer.from(
    JSON.stringify({ jti: payload.jti, sub: payload.sub, sid: payload.sid, exp: payload.exp }),
  ).toString('base64url');
  return `${encoded}.${mac(secret, encoded).toString('base64url')}`;
}

/** Expiring `ttlMs` after `now`, rounded down to the second. */
export function newLaunchPayload(userId: string, playSessionId: string, now: Date, ttlMs: number): LaunchTokenPayload {
  return { jti: randomUUID(), sub: userId, sid: playSessionId, exp: Math.floor((now.getTime() + ttlMs) / 1000) };
}

export function isExpired(payload: Pick<LaunchTokenPayload, 'exp'>, now: Date): boolean {
  return now.getTime() >= payload.exp * 1000;
}

function isPayload(value: unknown): value is LaunchTokenPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const candidate = value as Record<string, unknown>;
  return (
    Object.keys(candidate).length === 4 &&
    typeof candidate.jti === 'string' &&
    uuid.test(candidate.jti) &&
    typeof candidate.sub === 'string' &&
    uuid.test(candidate.sub) &&
    typeof candidate.sid === 'string' &&
    uuid.test(candidate.sid) &&
    typeof candidate.exp === 'number' &&
    Number.isSafeInteger(candidate.exp) &&
    candidate.exp > 0
  );
}

/** The signature is checked before the payload is parsed; expiry is reported, not refused. */
export function checkLaunchToken(token: unknown, secret: string | Buffer, now: Date): LaunchTokenCheck {
  if (typeof token !== 'string' || token.length > launchTokenMaxLength) return { ok: false, reason: 'malformed' };
  const match = shape.exec(token);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, encoded = '', signature = ''] = match;
  const given = Buffer.from(signature, 'base64url');
  // A signature differing only in its last character's unused bits is not the one we issued.
  if (given.length !== 32 || given.toString('base64url') !== signature) return { ok: false, reason: 'bad-signature' };
  if (!timingSafeEqual(given, mac(secret, encoded))) return { ok: false, reason: 'bad-signature' };
  let payload: unknown;
  try {
    const bytes = Buffer.from(encoded, 'base64url');
    if (bytes.toString('base64url') !== encoded) return { ok: false, reason: 'malformed' };
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isPayload(payload)) return { ok: false, reason: 'malformed' };
  return { ok: true, payload, expired: isExpired(payload, now) };
}
