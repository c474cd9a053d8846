# The site as one container: `node dist/node/server.js` on port 3000, production mode, the embedded
# database in the /data volume unless DATABASE_URL names PostgreSQL. Builds with docker or podman:
#   docker build -t asdas-site .
# BASE_IMAGE is any Debian-like image with Node.js 24 and npm in /usr/local (the official one by
# default; `npm run test:deploy` passes one made locally). Behind a proxy that inspects TLS, mount
# its CA bundle for the build only: podman build -v /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN if [ -f /run/host-ca.crt ]; then export NODE_EXTRA_CA_CERTS=/run/host-ca.crt npm_config_cafile=/run/host-ca.crt; fi \
 && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY . .
# BUILD_ID names the build (a release tag or commit; a random id when empty). Open tabs compare it
# with /builds/latest.json and load the new build on their next navigation.
ARG BUILD_ID=
# After the build only runtime packages stay. npm keeps the peer dependencies of @fastify/vite
# (vite and its toolchain), which only its development mode imports: they go too.
# The server bundle's source maps (14 MB) stay out: its code is not minified, so traces read as is.
RUN BUILD_ID="${BUILD_ID}" npm run build \
 && find dist/node -name '*.map' -delete \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
 && rm -rf node_modules/vite node_modules/rolldown node_modules/@rolldown node_modules/@oxc-project \
      node_modules/esbuild node_modules/@esbuild node_modules/lightningcss* node_modules/postcss \
      node_modules/typescript node_modules/tsx node_modules/@types node_modules/undici-types

FROM ${BASE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
# Memory settings V8 and glibc read only at process start (lib/runtime-env.ts, which `npm start` and
# the bench use too; decisions 0020 and 0023): a smaller young generation, an old generation
# collected at about 1.1x its live size, two malloc arenas, and large blocks mapped on their own.
# An operator's own NODE_OPTIONS replaces them: keep these flags in it. V8 flags NODE_OPTIONS refuses
# (--no-maglev, decision 0024) are on the CMD's command line below.
ENV NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=256" \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=65536
# A fixed numeric user, so Kubernetes' runAsNonRoot can check it; the code stays root-owned and read-only to it.
RUN groupadd --gid 10001 asdas \
 && useradd --no-log-init --uid 10001 --gid asdas --home-dir /nonexistent --shell /usr/sbin/nologin asdas \
 && mkdir /data && chown 10001:10001 /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/builds ./builds
COPY --from=build /app/locales ./locales
COPY --from=build /app/content ./content
# V8's compile cache (Node 22 and later; decision 0042): a start run here, as the user the image
# runs as (Node keys the cache by user id), leaves every module's compiled code in the folder,
# which then becomes read-only like the code. Each replica's start reads it instead of compiling.
ENV NODE_COMPILE_CACHE=/app/compile-cache
COPY --from=build /app/scripts/fill-compile-cache.mjs ./scripts/
RUN mkdir /app/compile-cache && chown 10001:10001 /app/compile-cache \
 && setpriv --reuid=10001 --regid=10001 --clear-groups node scripts/fill-compile-cache.mjs \
 && chown -R root:root /app/compile-cache && chmod -R a-w /app/compile-cache
USER 10001:10001
VOLUME /data
# 3000: the site; 9464: Prometheus metrics (METRICS_PORT), for the scraper only, never the proxy.
EXPOSE 3000 9464
# Scheduled health checks need a runtime that runs them (docker does; podman needs systemd).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains for SHUTDOWN_DRAIN_MS (5 s), then lets requests finish within SHUTDOWN_TIMEOUT_MS
# (10 s): stop with a grace period above both (`docker stop -t 20`; docker's default is 10 s).
STOPSIGNAL SIGTERM
CMD ["node", "--no-maglev", "dist/node/server.js"]
