import type { ErrorObject } from 'ajv';
import { type Env, schema, type TrustProxy } from './config-schema.ts';

export interface ConfigWarning {
  variable: string;
  message: string;
}

/** Never repeated in an error message (keys, passwords in URLs). */
const secretVariables = new Set(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PLAY_SECRET', 'PLAY_VERIFY_KEY']);

const allInterfaces = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0', '*']);

export function configWarnings(settings: {
  production: boolean;
  publicUrlSet: boolean;
  publicUrl: string;
  host: string;
  trustProxy: TrustProxy;
  smtpUrlSet: boolean;
  dataDir: string;
}): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  if (settings.production && !settings.smtpUrlSet) {
    warnings.push({
      variable: 'SMTP_URL',
      message:
        `SMTP_URL is not set: account emails (password resets, address checks) are written as .eml files to ${settings.dataDir}/outbox/ instead of being sent. ` +
        'Set SMTP_URL (smtp://user:password@host:587) so they reach people.',
    });
  }
  if (settings.production && !settings.publicUrlSet) {
    warnings.push({
      variable: 'PUBLIC_URL',
      message:
        `PUBLIC_URL is not set: canonical links, hreflang alternates, the sitemap and robots.txt name ${settings.publicUrl}. ` +
        'Set it to the origin visitors use (https://example.com).',
    });
  }
  if (settings.publicUrl.startsWith('https:') && settings.trustProxy === false) {
    warnings.push({
      variable: 'TRUST_PROXY',
      message:
        `PUBLIC_URL is ${settings.publicUrl} but TRUST_PROXY is false: X-Forwarded-Proto and X-Forwarded-For from the proxy that ends HTTPS are ignored, ` +
        "so every request looks like plain HTTP from the proxy's address (the per-address rate limits then count the proxy). " +
        "Session cookies are still marked Secure. Set TRUST_PROXY to the proxy's addresses or CIDR (10.0.0.0/8).",
    });
  }
  // Trusting by position cannot tell the proxy from a client that connects directly and writes its
  // own X-Forwarded-For, choosing the address the rate limits count.
  const trustsAnyPeer = settings.trustProxy === true || typeof settings.trustProxy === 'number';
  if (trustsAnyPeer && allInterfaces.has(settings.host)) {
    warnings.push({
      variable: 'TRUST_PROXY',
      message:
        `TRUST_PROXY=${String(settings.trustProxy)} believes X-Forwarded-* from any peer, and HOST=${settings.host} listens on every interface: ` +
        'a client that reaches the service directly, not through the proxy, can choose its own address and step around per-address rate limits. ' +
        "Set TRUST_PROXY to the proxy's addresses or CIDR (10.0.0.0/8), or listen only where the proxy connects from.",
    });
  }
  return warnings;
}

type PropertySchema = {
  type: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  description?: string;
};

/** What a variable must be, in words: the allowed values, the range, or its description. */
function expectation(name: string): string {
  const property = (schema.properties as Record<string, PropertySchema>)[name];
  if (!property) return 'a valid value';
  if (property.enum) return `one of ${property.enum.join(', ')}`;
  if (property.type === 'integer') {
    if (property.minimum !== undefined && property.maximum !== undefined)
      return `an integer from ${property.minimum} to ${property.maximum}`;
    if (property.minimum !== undefined) return `an integer of at least ${property.minimum}`;
    return 'an integer';
  }
  if (property.description) return property.description;
  if (property.minLength !== undefined && property.minLength > 1) return `at least ${property.minLength} characters`;
  return 'a non-empty value';
}

// Usually a template's `NAME=${NAME}` with nothing behind it, not a wrong value.
const emptyNote = ' (it is set but empty: give it a value, or remove it for the default)';

/** The variables set to nothing (or spaces), which never stand for a default. */
export function emptyVariables(env: Env): string[] {
  return Object.keys(schema.properties).filter((name) => env[name] !== undefined && env[name].trim() === '');
}

export function describeEmpty(names: readonly string[]): string {
  return names.map((name) => `${name} must be ${expectation(name)}${emptyNote}`).join('; ');
}

/** One sentence per bad variable, never a raw pattern, never the value of a secret. */
export function describeErrors(errors: ErrorObject[], env: Env): string {
  const names = [...new Set(errors.map((issue) => issue.instancePath.replace(/^\//, '')).filter(Boolean))];
  // The schema requires no variable, so every error names one; this is for a schema that would.
  if (names.length === 0) return errors.map((issue) => issue.message ?? issue.keyword).join('; ');
  return names
    .map((name) => {
      const value = env[name];
      const got =
        value === ''
          ? emptyNote
          : value === undefined || secretVariables.has(name)
            ? ''
            : ` (got ${JSON.stringify(value)})`;
      return `${name} must be ${expectation(name)}${got}`;
    })
    .join('; ');
}
