/** What the account and play tests share: a clock they move, valid registrations, cookies and Bearer headers. */
import type { LightMyRequestResponse } from 'fastify';
import type { RateLimitSettings } from '../../lib/rate-limit/settings.ts';

/** Generous limits, so only the rate-limit tests meet them. */
export const relaxedRateLimits: Partial<RateLimitSettings> = {
  registerPerIp: { max: 10_000, windowMs: 60_000 },
  loginPerIp: { max: 10_000, windowMs: 60_000 },
  loginFailuresPerAccountAndAddress: { max: 10_000, windowMs: 60_000 },
  loginFailuresPerAddress: { max: 10_000, windowMs: 60_000 },
  loginFailuresPerAccount: { max: 10_000, windowMs: 60_000 },
  passwordResetPerIp: { max: 10_000, windowMs: 60_000 },
  passwordResetEmailsPerAddress: { max: 10_000, windowMs: 60_000 },
  linkUsePerIp: { max: 10_000, windowMs: 60_000 },
  accountEmailsPerUser: { max: 10_000, windowMs: 60_000 },
};

/** A clock the test moves by hand. */
export class TestClock {
  #now: number;
  constructor(start = Date.now()) {
    this.#now = start;
  }
  readonly now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}

export const day = 24 * 60 * 60 * 1000;

let counter = 0;
/** A registration body that passes every rule, with a unique email. */
export function validRegistration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    email: `user${counter}.${process.pid}.${Date.now()}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Somchai Jaidee',
    locale: 'th',
    acceptTerms: true,
    confirmAge: true,
    ...overrides,
  };
}

export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** The `token` cookie a response sets, with its attributes (lower-cased names). */
export function tokenCookie(response: LightMyRequestResponse): ParsedCookie | undefined {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  for (const line of lines) {
    const [pair = '', ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    if (name !== 'token') continue;
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const [key = '', ...value] = part.split('=');
      attributes[key.trim().toLowerCase()] = value.length ? value.join('=').trim() : true;
    }
    return { name, value: pair.slice(eq + 1).trim(), attributes };
  }
  return undefined;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
