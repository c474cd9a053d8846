import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig, logLevels } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';
import { noNewConnections } from './lib/quiet-listener.ts';
import { loadCompiledSchemas, missedSchemas } from './lib/schemas/compiled.ts';

export const initializationErrorLog = 'error caught during app initialization';

/** Start-up: config → app → listen, then stop gracefully on SIGTERM/SIGINT. */
async function main() {
  const dev = process.argv.includes('--dev');
  let app: FastifyInstance | undefined;
  // Reports a failed start before the configuration is known (an unknown LOG_LEVEL among others).
  const requestedLevel = process.env.LOG_LEVEL;
  const bootLogger = createLogger(logLevels.find((level) => level === requestedLevel) ?? 'info');
  try {
    // Before the configuration: its validator is among the build's compiled schemas.
    if (!dev) loadCompiledSchemas();
    const config = loadConfig(process.env, { dev });
    // React picks its build from NODE_ENV when it loads: the app is imported once it is set.
    if (!dev) process.env.NODE_ENV ??= config.env;
    const { buildApp } = await import('./app.ts');
    const logger = createLogger(config.logLevel, undefined, { traceIds: config.tracing !== undefined });
    app = await buildApp({ config, logger });
    await app.listen({ host: config.host, port: config.port });
    app.log.debug({ missed: missedSchemas() }, 'schemas the build had not compiled, compiled at start');
    if (process.stdout.isTTY)
      app.log.info(`open http://localhost:${(app.server.address() as AddressInfo).port} in a browser`);
    if (config.metricsPort > 0) await app.metrics.listen(config.metricsHost, config.metricsPort);
    handleShutdown(app, { drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs });
  } catch (error) {
    (app?.log ?? bootLogger).fatal({ err: error }, `${initializationErrorLog}: ${(error as Error).message}`);
    await app?.close().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * SIGTERM/SIGINT: the drain, the listener closed once connections stop arriving, then requests in
 * flight finish (docs/operations.md, Shutdown and drain). A second signal ends the drain at once.
 */
const quietMs = 250;

function handleShutdown(app: FastifyInstance, { drainMs, timeoutMs }: { drainMs: number; timeoutMs: number }) {
  let phase: 'serving' | 'draining' | 'closing' = 'serving';
  let endDrain: (() => void) | undefined;

  const close = async (signal: string) => {
    phase = 'closing';
    const waited = await noNewConnections(app.server, quietMs, timeoutMs / 2);
    // Right after the poll phase that accepted what was queued; app.close() would take ticks more.
    app.server.close();
    app.log.info({ signal, waitedMs: waited }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'requests still in flight after the shutdown timeout; exiting');
      process.exit(1);
    }, timeoutMs - waited);
    timer.unref();
    // Keep-alive connections that fall idle after close() began would hold the server open.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
    sweep.unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };

  const stop = (signal: string) => {
    if (phase === 'closing') return;
    if (phase === 'draining') {
      app.log.info({ signal }, 'second signal: ending the drain now');
      endDrain?.();
      return;
    }
    phase = 'draining';
    app.shuttingDown = true;
    if (drainMs === 0) return void close(signal);
    app.log.info({ signal, drainMs }, 'draining: /readyz answers 503, requests are still served');
    const timer = setTimeout(() => void close(signal), drainMs);
    endDrain = () => {
      clearTimeout(timer);
      void close(signal);
    };
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
