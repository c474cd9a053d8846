export type Env = Record<string, string | undefined>;

/** TRUST_PROXY as read: on or off, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = boolean | number | string[];

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One hash at a time unless PASSWORD_HASH_CONCURRENCY says otherwise (decision 0022). */
export const defaultHashConcurrency = 1;

/** Every setting read from the environment, checked once at start. */
export const schema = {
  type: 'object',
  properties: {
    NODE_ENV: { type: 'string', enum: ['production', 'development', 'test'], default: 'production' },
    HOST: { type: 'string', minLength: 1, default: '0.0.0.0' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9464 },
    METRICS_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    LOG_LEVEL: { type: 'string', enum: [...logLevels], default: 'info' },
    // A `description` is what an error message says is expected, instead of the raw pattern.
    TRUST_PROXY: {
      type: 'string',
      pattern: '^(true|false|\\d+|[0-9a-fA-F.:/,\\s]+)$',
      description: 'true, false, a hop count (1) or proxy addresses/CIDRs (10.0.0.0/8,127.0.0.1)',
      default: 'false',
    },
    PUBLIC_URL: {
      type: 'string',
      pattern: '^https?://[^/\\s]+/?$',
      description: 'an origin such as https://example.com (no path)',
    },
    SHUTDOWN_TIMEOUT_MS: { type: 'integer', minimum: 0, maximum: 600000, default: 10000 },
    // No default here: it depends on NODE_ENV (see loadConfig).
    SHUTDOWN_DRAIN_MS: { type: 'integer', minimum: 0, maximum: 600000 },
    BODY_LIMIT_BYTES: { type: 'integer', minimum: 1024, maximum: 10485760, default: 65536 },
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: { type: 'integer', minimum: 0, maximum: 60000, default: 1000 },
    OVERLOAD_MAX_HEAP_BYTES: { type: 'integer', minimum: 0 },
    OVERLOAD_MAX_IN_FLIGHT: { type: 'integer', minimum: 0, maximum: 100000, default: 100 },
    MAX_CONNECTIONS_PER_ADDRESS: { type: 'integer', minimum: 0, maximum: 100000, default: 128 },
    HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 600000, default: 10000 },
    REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 600000, default: 30000 },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://', description: 'a postgres:// or postgresql:// URL' },
    REDIS_URL: { type: 'string', pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' },
    PASSWORD_HASH_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: defaultHashConcurrency },
    SESSION_TTL_DAYS: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
    LOGIN_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1000000, default: 10 },
    REGISTER_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1000000, default: 5 },
    ICON_UPSTREAM_URL: {
      type: 'string',
      pattern: '^https?://[^\\s]+$',
      description: 'an http(s) URL',
      default: 'https://api.iconify.design',
    },
    BUILD_CHECK_INTERVAL_MS: { type: 'integer', minimum: 1000, default: 3600000 },
    PLAY_URL: { type: 'string', pattern: '^https?://[^\\s]+$', description: 'an http(s) URL' },
    PLAY_SECRET: { type: 'string', minLength: 32 },
    PLAY_VERIFY_KEY: { type: 'string', minLength: 32 },
    ALLOWED_EXTERNAL_ORIGINS: {
      type: 'string',
      pattern: '^https?://[^/\\s,]+(\\s*,\\s*https?://[^/\\s,]+)*$',
      description: 'comma-separated origins such as https://a.example,https://b.example',
    },
    SMTP_URL: { type: 'string', pattern: '^smtps?://[^\\s]+$', description: 'an smtp:// or smtps:// URL' },
    MAIL_FROM: {
      type: 'string',
      minLength: 3,
      maxLength: 320,
      pattern: '^[^\\r\\n]+$',
      description: 'an address such as "Asdas <no-reply@example.com>" (one line)',
    },
    REQUIRE_VERIFIED_EMAIL_FOR_PLAY: { type: 'string', enum: ['true', 'false'], default: 'false' },
    // Exempt from the per-address rate limits (a load-testing aid).
    RATE_LIMIT_ALLOW_LIST: {
      type: 'string',
      pattern: '^[0-9a-fA-F.:/,\\s]*$',
      description: 'comma-separated addresses or CIDRs such as 10.0.0.5,192.168.0.0/24',
      default: '',
    },
    PAGE_CACHE_TTL_MS: { type: 'integer', minimum: 0, maximum: 86400000, default: 300000 },
    PAGE_CACHE_MAX_BYTES: { type: 'integer', minimum: 0, maximum: 4294967296, default: 33554432 },
    // Anonymous pages' `s-maxage` and `stale-while-revalidate` for a CDN or the proxy (decision 0044).
    SHARED_CACHE_SECONDS: { type: 'integer', minimum: 0, maximum: 3600, default: 5 },
    SHARED_CACHE_STALE_SECONDS: { type: 'integer', minimum: 0, maximum: 86400, default: 30 },
    // OpenTelemetry's own variables, read by its SDK (lib/tracing.ts) and checked here first. An
    // endpoint turns tracing on; without one nothing of it is loaded (decision 0034).
    OTEL_EXPORTER_OTLP_ENDPOINT: {
      type: 'string',
      pattern: '^https?://[^\\s]+$',
      description: "the collector's OTLP/HTTP base URL, such as http://collector:4318",
    },
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
      type: 'string',
      pattern: '^https?://[^\\s]+$',
      description: 'the full URL traces are posted to, such as http://collector:4318/v1/traces',
    },
    // grpc is not offered: OTLP/HTTP needs no second transport in the image.
    OTEL_EXPORTER_OTLP_PROTOCOL: { type: 'string', enum: ['http/protobuf', 'http/json'] },
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: { type: 'string', enum: ['http/protobuf', 'http/json'] },
    OTEL_SERVICE_NAME: { type: 'string', minLength: 1 },
    OTEL_TRACES_SAMPLER: {
      type: 'string',
      enum: [
        'always_on',
        'always_off',
        'traceidratio',
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
      ],
    },
    OTEL_TRACES_SAMPLER_ARG: { type: 'number', minimum: 0, maximum: 1 },
    OTEL_SDK_DISABLED: { type: 'string', enum: ['true', 'false'] },
  },
} as const;
