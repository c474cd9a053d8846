import type { FromSchema } from 'json-schema-to-ts';

export type Env = Record<string, string | undefined>;

/** TRUST_PROXY as read: on or off, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = boolean | number | string[];

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One hash at a time unless PASSWORD_HASH_CONCURRENCY says otherwise (decision 0022). */
export const defaultHashConcurrency = 1;

const port = { type: 'integer', minimum: 0, maximum: 65535 } as const;
/** A string its pattern checks; `description` is what an error message says is expected, not the pattern. */
const text = (pattern: string, description: string) => ({ type: 'string', pattern, description }) as const;
const httpUrl = text('^https?://[^\\s]+$', 'an http(s) URL');
const otlpProtocol = { type: 'string', enum: ['http/protobuf', 'http/json'] } as const;
const samplers = ['always_on', 'always_off', 'traceidratio'] as const;

/** Every setting read from the environment, checked once at start (docs/configuration.md). */
export const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    NODE_ENV: { type: 'string', enum: ['production', 'development', 'test'], default: 'production' },
    HOST: { type: 'string', minLength: 1, default: '0.0.0.0' },
    PORT: { ...port, default: 3000 },
    METRICS_PORT: { ...port, default: 9464 },
    METRICS_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    LOG_LEVEL: { type: 'string', enum: logLevels, default: 'info' },
    TRUST_PROXY: {
      type: 'string',
      pattern: '^(true|false|\\d+|[0-9a-fA-F.:/,\\s]+)$',
      description: 'true, false, a hop count (1) or proxy addresses/CIDRs (10.0.0.0/8,127.0.0.1)',
      default: 'false',
    },
    PUBLIC_URL: text('^https?://[^/\\s]+/?$', 'an origin such as https://example.com (no path)'),
    SHUTDOWN_TIMEOUT_MS: { type: 'integer', minimum: 0, maximum: 600000, default: 10000 },
    // No default here: 5000 in production, else 0 (loadConfig).
    SHUTDOWN_DRAIN_MS: { type: 'integer', minimum: 0, maximum: 600000 },
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: { type: 'integer', minimum: 0, maximum: 60000, default: 1000 },
    OVERLOAD_MAX_IN_FLIGHT: { type: 'integer', minimum: 0, maximum: 100000, default: 100 },
    HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 600000, default: 10000 },
    REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 600000, default: 30000 },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: text('^postgres(ql)?://', 'a postgres:// or postgresql:// URL'),
    REDIS_URL: text('^rediss?://', 'a redis:// or rediss:// URL'),
    PASSWORD_HASH_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: defaultHashConcurrency },
    SESSION_TTL_DAYS: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
    LOGIN_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1000000, default: 10 },
    REGISTER_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1000000, default: 5 },
    ICON_UPSTREAM_URL: { ...httpUrl, default: 'https://api.iconify.design' },
    BUILD_CHECK_INTERVAL_MS: { type: 'integer', minimum: 1000, default: 3600000 },
    PLAY_URL: httpUrl,
    PLAY_SECRET: { type: 'string', minLength: 32 },
    PLAY_VERIFY_KEY: { type: 'string', minLength: 32 },
    ALLOWED_EXTERNAL_ORIGINS: {
      type: 'string',
      pattern: '^https?://[^/\\s,]+(\\s*,\\s*https?://[^/\\s,]+)*$',
      description: 'comma-separated origins such as https://a.example,https://b.example',
    },
    SMTP_URL: text('^smtps?://[^\\s]+$', 'an smtp:// or smtps:// URL'),
    MAIL_FROM: text('^[^\\r\\n]{3,320}$', 'an address such as "Asdas <no-reply@example.com>" (one line)'),
    REQUIRE_VERIFIED_EMAIL_FOR_PLAY: { type: 'boolean', default: false },
    // Exempt from the per-address rate limits and the connection bound (a load-testing aid).
    RATE_LIMIT_ALLOW_LIST: {
      ...text('^[0-9a-fA-F.:/,\\s]*$', 'comma-separated addresses or CIDRs such as 10.0.0.5,192.168.0.0/24'),
      default: '',
    },
    PAGE_CACHE_TTL_MS: { type: 'integer', minimum: 0, maximum: 86400000, default: 300000 },
    // OpenTelemetry's own, read by its SDK (lib/tracing.ts) and checked here first: an endpoint turns
    // traces on (decision 0034). No gRPC: OTLP/HTTP needs no second transport in the image.
    OTEL_EXPORTER_OTLP_ENDPOINT: text(httpUrl.pattern, "the collector's OTLP/HTTP base URL (http://collector:4318)"),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: text(httpUrl.pattern, 'the traces URL (http://collector:4318/v1/traces)'),
    OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol,
    OTEL_SERVICE_NAME: { type: 'string', minLength: 1 },
    OTEL_TRACES_SAMPLER: { type: 'string', enum: [...samplers, ...samplers.map((name) => `parentbased_${name}`)] },
    OTEL_TRACES_SAMPLER_ARG: { type: 'number', minimum: 0, maximum: 1 },
    OTEL_SDK_DISABLED: { type: 'boolean' },
  },
} as const;

type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<Name>;

type Variables = FromSchema<typeof schema>;

/** Every variable under its camelCase name (`PORT`: `port`), as the schema types it. */
export type Settings = { -readonly [Name in keyof Variables as CamelCase<Name & string>]: Variables[Name] };
