import { isIP } from 'node:net';
import { ajvValidator } from './schemas/compilers.ts';
import {
  configWarnings,
  type ConfigWarning,
  describeEmpty,
  describeErrors,
  emptyVariables,
} from './config-messages.ts';
import { type Env, schema, type TrustProxy } from './config-schema.ts';
import type { TracesProtocol } from './tracing.ts';

export { logLevels } from './config-schema.ts';

export type { ConfigWarning } from './config-messages.ts';

export type { Env, TrustProxy } from './config-schema.ts';

export interface Config {
  env: 'production' | 'development' | 'test';
  dev: boolean;
  host: string;
  port: number;
  /** Prometheus metrics listener; 0: none. */
  metricsPort: number;
  metricsHost: string;
  logLevel: string;
  trustProxy: TrustProxy;
  publicUrl: string;
  /** After SIGTERM, how long /readyz answers 503 while requests are still served (load balancers notice). */
  shutdownDrainMs: number;
  /** Then, how long requests in flight may take once the listener is closed. */
  shutdownTimeoutMs: number;
  bodyLimitBytes: number;
  /** Shed requests (503) while the event loop lags more than this on average; 0: never. */
  overloadMaxEventLoopDelayMs: number;
  /** Shed requests while the heap holds more than this; 0: never; undefined: 90% of V8's heap limit. */
  overloadMaxHeapBytes: number | undefined;
  /** Shed requests while this many pages and API requests are being worked on; 0: never. */
  overloadMaxInFlight: number;
  /** Open connections one client address may hold (not trusted proxies, not RATE_LIMIT_ALLOW_LIST); 0: no bound. */
  maxConnectionsPerAddress: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  passwordHashConcurrency: number;
  sessionTtlDays: number;
  loginRateLimitPerMinute: number;
  registerRateLimitPerMinute: number;
  rateLimitAllowList: string[];
  iconUpstreamUrl: string;
  buildCheckIntervalMs: number;
  playUrl: string | undefined;
  playSecret: string | undefined;
  /** What the play destination sends as `Authorization: Bearer` to verify launch tokens. */
  playVerifyKey: string | undefined;
  /** Origins navigateTo may leave the site for: ALLOWED_EXTERNAL_ORIGINS plus PLAY_URL's origin. */
  allowedExternalOrigins: string[];
  /** Valid but probably not what the operator meant; logged at start. */
  warnings: ConfigWarning[];
  smtpUrl: string | undefined;
  mailFrom: string;
  requireVerifiedEmailForPlay: boolean;
  pageCacheTtlMs: number;
  pageCacheMaxBytes: number;
  sharedCacheSeconds: number;
  sharedCacheStaleSeconds: number;
  /** On with an OTLP endpoint unless OTEL_SDK_DISABLED; the SDK reads the rest itself. */
  tracing: { protocol: TracesProtocol } | undefined;
}

/** Strings coerced to the schema's types, defaults filled in, unknown variables dropped. */
const envOptions = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  allowUnionTypes: true,
  addUsedSchema: false,
} as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Env = process.env, overrides: { dev?: boolean } = {}): Config {
  // Coerced and completed in place: a copy, so process.env keeps what the operator set.
  const raw: Record<string, unknown> = { ...env };
  const empty = emptyVariables(env);
  if (empty.length > 0) throw new ConfigError(`Invalid configuration: ${describeEmpty(empty)}`);
  const validate = ajvValidator('config', envOptions, schema);
  if (!validate(raw)) throw new ConfigError(`Invalid configuration: ${describeErrors(validate.errors ?? [], env)}`);
  const port = raw.PORT as number;
  const nodeEnv = raw.NODE_ENV as Config['env'];
  const playUrl = raw.PLAY_URL as string | undefined;
  if (playUrl && !URL.canParse(playUrl))
    throw new ConfigError('Invalid configuration: PLAY_URL must be an http(s) URL.');
  // Launch tokens for a destination of the operator's own must be verifiable by every replica.
  if (playUrl && nodeEnv === 'production' && !raw.PLAY_SECRET) {
    throw new ConfigError(
      'Invalid configuration: PLAY_SECRET is required when PLAY_URL is set (32 characters or more; it signs the launch tokens).',
    );
  }
  // The destination must prove itself to verify a token, or anyone holding one could spend it.
  if (playUrl && nodeEnv === 'production' && !raw.PLAY_VERIFY_KEY) {
    throw new ConfigError(
      'Invalid configuration: PLAY_VERIFY_KEY is required when PLAY_URL is set (32 characters or more; the play destination sends it to verify launch tokens).',
    );
  }
  if ((raw.METRICS_PORT as number) !== 0 && raw.METRICS_PORT === raw.PORT) {
    throw new ConfigError(
      'Invalid configuration: METRICS_PORT must differ from PORT (metrics are never served on the public port; 0 turns them off).',
    );
  }
  if ((raw.HEADERS_TIMEOUT_MS as number) > (raw.REQUEST_TIMEOUT_MS as number)) {
    throw new ConfigError('Invalid configuration: HEADERS_TIMEOUT_MS must be at most REQUEST_TIMEOUT_MS.');
  }
  // Replicas share PostgreSQL; each one's random key could not verify the others' launch tokens.
  if (raw.DATABASE_URL && nodeEnv === 'production' && !raw.PLAY_SECRET) {
    throw new ConfigError(
      'Invalid configuration: PLAY_SECRET is required when DATABASE_URL is set (replicas must share the key that signs launch tokens).',
    );
  }
  const dev = overrides.dev ?? false;
  const production = nodeEnv === 'production' && !dev;
  const host = raw.HOST as string;
  const trustProxy = parseTrustProxy(raw.TRUST_PROXY as string);
  const smtpUrl = raw.SMTP_URL as string | undefined;
  if (smtpUrl && !URL.canParse(smtpUrl))
    throw new ConfigError('Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL.');
  const publicUrl = ((raw.PUBLIC_URL as string | undefined) ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    env: nodeEnv,
    dev,
    host,
    port,
    metricsPort: raw.METRICS_PORT as number,
    metricsHost: raw.METRICS_HOST as string,
    logLevel: raw.LOG_LEVEL as string,
    trustProxy,
    publicUrl,
    // A load balancer needs a few seconds to see /readyz fail; a developer's Ctrl-C does not.
    shutdownDrainMs: (raw.SHUTDOWN_DRAIN_MS as number | undefined) ?? (production ? 5000 : 0),
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS as number,
    bodyLimitBytes: raw.BODY_LIMIT_BYTES as number,
    overloadMaxEventLoopDelayMs: raw.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS as number,
    overloadMaxHeapBytes: raw.OVERLOAD_MAX_HEAP_BYTES as number | undefined,
    overloadMaxInFlight: raw.OVERLOAD_MAX_IN_FLIGHT as number,
    maxConnectionsPerAddress: raw.MAX_CONNECTIONS_PER_ADDRESS as number,
    headersTimeoutMs: raw.HEADERS_TIMEOUT_MS as number,
    requestTimeoutMs: raw.REQUEST_TIMEOUT_MS as number,
    dataDir: raw.DATA_DIR as string,
    databaseUrl: raw.DATABASE_URL as string | undefined,
    redisUrl: raw.REDIS_URL as string | undefined,
    passwordHashConcurrency: raw.PASSWORD_HASH_CONCURRENCY as number,
    sessionTtlDays: raw.SESSION_TTL_DAYS as number,
    loginRateLimitPerMinute: raw.LOGIN_RATE_LIMIT_PER_MINUTE as number,
    registerRateLimitPerMinute: raw.REGISTER_RATE_LIMIT_PER_MINUTE as number,
    rateLimitAllowList: parseAllowList(raw.RATE_LIMIT_ALLOW_LIST as string),
    iconUpstreamUrl: (raw.ICON_UPSTREAM_URL as string).replace(/\/$/, ''),
    buildCheckIntervalMs: raw.BUILD_CHECK_INTERVAL_MS as number,
    playUrl,
    playSecret: raw.PLAY_SECRET as string | undefined,
    playVerifyKey: raw.PLAY_VERIFY_KEY as string | undefined,
    // PLAY_URL's origin is always allowed: Play sends the player there.
    allowedExternalOrigins: [
      ...new Set(
        [...((raw.ALLOWED_EXTERNAL_ORIGINS as string | undefined) ?? '').split(','), playUrl ?? '']
          .map((origin) => origin.trim())
          .filter(Boolean)
          .map((origin) => new URL(origin).origin),
      ),
    ],
    warnings: configWarnings({
      production,
      publicUrlSet: raw.PUBLIC_URL !== undefined,
      publicUrl,
      host,
      trustProxy,
      smtpUrlSet: smtpUrl !== undefined,
      dataDir: raw.DATA_DIR as string,
    }),
    smtpUrl,
    mailFrom: (raw.MAIL_FROM as string | undefined) ?? `Asdas <no-reply@${new URL(publicUrl).hostname}>`,
    requireVerifiedEmailForPlay: raw.REQUIRE_VERIFIED_EMAIL_FOR_PLAY === 'true',
    pageCacheTtlMs: raw.PAGE_CACHE_TTL_MS as number,
    pageCacheMaxBytes: raw.PAGE_CACHE_MAX_BYTES as number,
    sharedCacheSeconds: raw.SHARED_CACHE_SECONDS as number,
    sharedCacheStaleSeconds: raw.SHARED_CACHE_STALE_SECONDS as number,
    tracing: tracingOf(raw),
  };
}

/** OTLP over HTTP, protobuf unless a protocol variable says JSON (the specification's default). */
function tracingOf(raw: Record<string, unknown>): Config['tracing'] {
  const endpoint = raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? raw.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined || raw.OTEL_SDK_DISABLED === 'true') return undefined;
  const protocol = raw.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? raw.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  return { protocol: protocol as TracesProtocol };
}

/** `10.0.0.0/8, 192.0.2.7, ::1`: every entry must be an address or a CIDR block of one. */
function parseAllowList(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (family === 0 || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      throw new ConfigError(
        `Invalid configuration: RATE_LIMIT_ALLOW_LIST entry '${entry}' is not an address or a CIDR block.`,
      );
    }
  }
  return entries;
}

function parseTrustProxy(value: string): TrustProxy {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
