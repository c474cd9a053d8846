import { isIP } from 'node:net';
import { ajvValidator } from './schemas/compilers.ts';
import { configWarnings, describeVariables, emptyVariables } from './config-messages.ts';
import { type Env, schema, type Settings, type TrustProxy } from './config-schema.ts';
import type { TracesProtocol } from './tracing.ts';

export { logLevels, type TrustProxy } from './config-schema.ts';

/** Every variable camelCased (`PORT`: `port`; docs/configuration.md), and what is worked out from them. */
export type Config = ReturnType<typeof loadConfig>;

/** Strings coerced to the schema's types, defaults filled in, unknown variables dropped. */
const envOptions = { allErrors: true, removeAdditional: true, useDefaults: true, coerceTypes: true } as const;

const names = Object.keys(schema.properties);
const camelCase = (name: string) =>
  name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
/** The pattern checks the scheme, this that the rest parses (pg and ioredis parse their own URLs). */
const urlVariables = names.filter((name) => /_(URL|ENDPOINT)$/.test(name) && !/^(DATABASE|REDIS)_/.test(name));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function refuse(reason: string): never {
  throw new ConfigError(`Invalid configuration: ${reason}`);
}

export function loadConfig(env: Env = process.env, overrides: { dev?: boolean } = {}) {
  const empty = emptyVariables(env);
  if (empty.length > 0) refuse(describeVariables(empty, env));
  // Coerced and completed in place: a copy, so process.env keeps what the operator set.
  const raw: Record<string, unknown> = { ...env };
  const validate = ajvValidator('config', envOptions, schema);
  const invalid = validate(raw) ? [] : validate.errors!.map((issue) => issue.instancePath.slice(1));
  if (invalid.length > 0) refuse(describeVariables(invalid, env));
  const unparsed = urlVariables.filter((name) => env[name] !== undefined && !URL.canParse(env[name]));
  if (unparsed.length > 0) refuse(describeVariables(unparsed, env));
  const settings = Object.fromEntries(names.map((name) => [camelCase(name), raw[name]])) as Settings;
  const { nodeEnv, port, playUrl, playSecret } = settings;
  const live = nodeEnv === 'production';
  const combinations: [refused: boolean, reason: string][] = [
    // Launch tokens for a destination of the operator's own must be verifiable by every replica.
    [
      live && !!playUrl && !playSecret,
      'PLAY_SECRET is required when PLAY_URL is set (32 characters or more; it signs the launch tokens).',
    ],
    // The destination must prove itself to verify a token, or anyone holding one could spend it.
    [
      live && !!playUrl && !settings.playVerifyKey,
      'PLAY_VERIFY_KEY is required when PLAY_URL is set (32 characters or more; the play destination sends it to verify launch tokens).',
    ],
    [
      settings.metricsPort !== 0 && settings.metricsPort === port,
      'METRICS_PORT must differ from PORT (metrics are never served on the public port; 0 turns them off).',
    ],
    [settings.headersTimeoutMs > settings.requestTimeoutMs, 'HEADERS_TIMEOUT_MS must be at most REQUEST_TIMEOUT_MS.'],
    // Replicas share PostgreSQL; each one's random key could not verify the others' launch tokens.
    [
      live && !!settings.databaseUrl && !playSecret,
      'PLAY_SECRET is required when DATABASE_URL is set (replicas must share the key that signs launch tokens).',
    ],
  ];
  const refusal = combinations.find(([refused]) => refused);
  if (refusal) refuse(refusal[1]);
  const dev = overrides.dev ?? false;
  const production = live && !dev;
  const trustProxy = trustProxyOf(settings.trustProxy);
  const publicUrl = (settings.publicUrl ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    ...settings,
    env: nodeEnv,
    dev,
    trustProxy,
    publicUrl,
    /** After SIGTERM, how long /readyz answers 503 while requests are still served (5 s in production). */
    shutdownDrainMs: settings.shutdownDrainMs ?? (production ? 5000 : 0),
    rateLimitAllowList: allowListOf(settings.rateLimitAllowList),
    iconUpstreamUrl: settings.iconUpstreamUrl.replace(/\/$/, ''),
    /** Origins navigateTo may leave the site for: ALLOWED_EXTERNAL_ORIGINS and PLAY_URL's, where Play sends players. */
    allowedExternalOrigins: [
      ...new Set(
        [...list(settings.allowedExternalOrigins ?? ''), ...list(playUrl ?? '')].map((url) => new URL(url).origin),
      ),
    ],
    warnings: configWarnings(settings, { production, publicUrl, trustProxy }),
    mailFrom: settings.mailFrom ?? `Asdas <no-reply@${new URL(publicUrl).hostname}>`,
    tracing: tracingOf(settings),
  };
}

/** On with an OTLP endpoint unless OTEL_SDK_DISABLED; protobuf unless a protocol variable says JSON. */
function tracingOf(set: Settings): { protocol: TracesProtocol } | undefined {
  if ((set.otelExporterOtlpTracesEndpoint ?? set.otelExporterOtlpEndpoint) === undefined || set.otelSdkDisabled) return;
  return { protocol: set.otelExporterOtlpTracesProtocol ?? set.otelExporterOtlpProtocol ?? 'http/protobuf' };
}

const list = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `10.0.0.0/8, 192.0.2.7, ::1`: every entry must be an address or a CIDR block of one. */
function allowListOf(value: string): string[] {
  const entries = list(value);
  const bad = entries.find((entry) => {
    const [address = '', prefix] = entry.split('/');
    const bits = isIP(address) === 4 ? 32 : 128;
    return isIP(address) === 0 || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits));
  });
  if (bad !== undefined) refuse(`RATE_LIMIT_ALLOW_LIST entry '${bad}' is not an address or a CIDR block.`);
  return entries;
}

function trustProxyOf(value: string): TrustProxy {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : list(value);
}
