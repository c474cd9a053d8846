import type { JSONSchema } from 'json-schema-to-ts';
import { type Env, schema, type Settings, type TrustProxy } from './config-schema.ts';

export interface ConfigWarning {
  variable: string;
  message: string;
}

/** Never repeated in an error message (keys, passwords in URLs). */
const secretVariables = new Set(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PLAY_SECRET', 'PLAY_VERIFY_KEY']);

const allInterfaces = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0', '*']);

/** Valid settings that are probably not what the operator meant, logged at start. */
export function configWarnings(
  set: Settings,
  { production, publicUrl, trustProxy }: { production: boolean; publicUrl: string; trustProxy: TrustProxy },
): ConfigWarning[] {
  // Trusting by position cannot tell the proxy from a client that connects directly and writes its
  // own X-Forwarded-For, choosing the address the rate limits count.
  const trustsAnyPeer = trustProxy === true || typeof trustProxy === 'number';
  const warnings: [warn: boolean, variable: string, message: string][] = [
    [
      production && set.smtpUrl === undefined,
      'SMTP_URL',
      `SMTP_URL is not set: account emails (password resets, address checks) are written as .eml files to ${set.dataDir}/outbox/ instead of being sent. ` +
        'Set SMTP_URL (smtp://user:password@host:587) so they reach people.',
    ],
    [
      production && set.publicUrl === undefined,
      'PUBLIC_URL',
      `PUBLIC_URL is not set: canonical links, hreflang alternates, the sitemap and robots.txt name ${publicUrl}. ` +
        'Set it to the origin visitors use (https://example.com).',
    ],
    [
      publicUrl.startsWith('https:') && trustProxy === false,
      'TRUST_PROXY',
      `PUBLIC_URL is ${publicUrl} but TRUST_PROXY is false: X-Forwarded-Proto and X-Forwarded-For from the proxy that ends HTTPS are ignored, ` +
        "so every request looks like plain HTTP from the proxy's address (the per-address rate limits then count the proxy). " +
        "Session cookies are still marked Secure. Set TRUST_PROXY to the proxy's addresses or CIDR (10.0.0.0/8).",
    ],
    [
      trustsAnyPeer && allInterfaces.has(set.host),
      'TRUST_PROXY',
      `TRUST_PROXY=${String(trustProxy)} believes X-Forwarded-* from any peer, and HOST=${set.host} listens on every interface: ` +
        'a client that reaches the service directly, not through the proxy, can choose its own address and step around per-address rate limits. ' +
        "Set TRUST_PROXY to the proxy's addresses or CIDR (10.0.0.0/8), or listen only where the proxy connects from.",
    ],
  ];
  return warnings.filter(([warn]) => warn).map(([, variable, message]) => ({ variable, message }));
}

/** What a variable must be, in words: the allowed values, the range, or its description. */
function expectation(name: string): string {
  const property = (schema.properties as Record<string, Exclude<JSONSchema, boolean>>)[name] ?? {};
  const { type, minimum, maximum, minLength = 0 } = property;
  if (Array.isArray(property.enum)) return `one of ${property.enum.join(', ')}`;
  if (type === 'boolean') return 'true or false';
  if (type === 'integer' || type === 'number') {
    const kind = type === 'integer' ? 'an integer' : 'a number';
    if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
    return minimum === undefined ? kind : `${kind} of at least ${minimum}`;
  }
  return property.description ?? (minLength > 1 ? `at least ${minLength} characters` : 'a non-empty value');
}

// Usually a template's `NAME=${NAME}` with nothing behind it, not a wrong value.
const emptyNote = ' (it is set but empty: give it a value, or remove it for the default)';

/** The variables set to nothing (or spaces), which never stand for a default. */
export const emptyVariables = (env: Env) => Object.keys(schema.properties).filter((name) => env[name]?.trim() === '');

function got(name: string, value: string | undefined): string {
  if (value?.trim() === '') return emptyNote;
  return value === undefined || secretVariables.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
}

/** One sentence per bad variable, never a raw pattern, never the value of a secret. */
export const describeVariables = (names: readonly string[], env: Env) =>
  [...new Set(names)].map((name) => `${name} must be ${expectation(name)}${got(name, env[name])}`).join('; ');
