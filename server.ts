import type { FastifyInstance } from 'fastify';
import { loadConfig, logLevels } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';
import { noNewConnections } from './lib/quiet-listener.ts';

export const initializationErrorLog = 'error caught during app initialization';

/** Start-up: config → app → listen, then stop gracefully on SIGTERM/SIGINT. */
async function main() {
  const dev = process.argv.includes('--dev');
  let app: FastifyInstance | undefined;
  // Reports a failed start before the configuration is known: LOG_LEVEL is only used once it is
  // one of pino's levels (an unknown one is reported by loadConfig, through this logger).
  const requestedLevel = process.env.LOG_LEVEL;
  const bootLogger = createLogger(logLevels.find((level) => level === requestedLevel) ?? 'info');
  try {
    const config = loadConfig(process.env, { dev });
    // Libraries read NODE_ENV from the environment when they load, not our configuration's default:
    // without it React would render with its development build (about twice the CPU of a page). So
    // the app (whose page routes use react-router, which loads React) is imported once it is set,
    // and only outside development, where Vite decides.
    if (!dev) process.env.NODE_ENV ??= config.env;
    const { buildApp } = await import('./app.ts');
    const logger = createLogger(config.logLevel, undefined, { traceIds: config.tracing !== undefined });
    app = await buildApp({ config, logger });
    await app.listen({ host: config.host, port: config.port });
    // Metrics on a port of their own, never routed through the public proxy (0 turns them off).
    if (config.metricsPort > 0) await app.metrics.listen(config.metricsHost, config.metricsPort);
    handleShutdown(app, { drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs });
  } catch (error) {
    (app?.log ?? bootLogger).fatal({ err: error }, `${initializationErrorLog}: ${(error as Error).message}`);
    await app?.close().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * SIGTERM/SIGINT: first the drain (`/readyz` answers 503 while pages and the API are still served,
 * for SHUTDOWN_DRAIN_MS, so load balancers and Kubernetes endpoints stop sending traffic), then
 * the listener closes once no connection has arrived for `quietMs` (within half of
 * SHUTDOWN_TIMEOUT_MS), and requests in flight get the rest of SHUTDOWN_TIMEOUT_MS; exit 0.
 * A second signal during the drain ends it at once (Ctrl-C twice).
 */
const quietMs = 250;

function handleShutdown(app: FastifyInstance, { drainMs, timeoutMs }: { drainMs: number; timeoutMs: number }) {
  let phase: 'serving' | 'draining' | 'closing' = 'serving';
  let endDrain: (() => void) | undefined;

  const close = async (signal: string) => {
    phase = 'closing';
    // The listener stays open until connections stop arriving, for at most half the timeout.
    const waited = await noNewConnections(app.server, quietMs, timeoutMs / 2);
    // Now, right after the poll phase that accepted what was queued (app.close() would take a few
    // ticks more); requests-in-flight's preClose finds the listener closed.
    app.server.close();
    app.log.info({ signal, waitedMs: waited }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'requests still in flight after the shutdown timeout; exiting');
      process.exit(1);
    }, timeoutMs - waited);
    timer.unref();
    // A keep-alive connection whose last request finishes after close() began would hold the
    // server open until its idle timeout: close such connections as they fall idle.
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
