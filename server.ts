import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, logLevels } from './lib/config.ts';
import { createLogger, requestLines } from './lib/logger.ts';
import { closeWhenQuiet } from './lib/quiet-listener.ts';
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
    app = await buildApp({ config, logger, requestLines: requestLines(config.logLevel) });
    await listenOrSay('PORT', config.port, config.host, () => app!.listen({ host: config.host, port: config.port }));
    if (config.metricsPort > 0) {
      const { metricsHost, metricsPort } = config;
      await listenOrSay('METRICS_PORT', metricsPort, metricsHost, () => app!.metrics.listen(metricsHost, metricsPort));
    }
    app.log.debug({ missed: missedSchemas() }, 'schemas the build had not compiled, compiled at start');
    if (process.stdout.isTTY)
      app.log.info(`open http://localhost:${(app.server.address() as AddressInfo).port} in a browser`);
    handleShutdown(app, { drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs });
  } catch (error) {
    // A setting or the machine says no: one line that says what to do. Anything else is a bug: its stack.
    const line = `${initializationErrorLog}: ${(error as Error).message}`;
    if (error instanceof ConfigError) (app?.log ?? bootLogger).fatal(line);
    else (app?.log ?? bootLogger).fatal({ err: error }, line);
    await app?.close().catch(() => undefined);
    process.exit(1);
  }
}

/** A listener that cannot open, said with the variable that chose it. */
async function listenOrSay(variable: string, port: number, host: string, listen: () => Promise<unknown>) {
  try {
    await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `${host}:${port}`;
    if (code === 'EADDRINUSE')
      throw new ConfigError(
        `${variable}=${port}: another process already listens on ${where}: stop it, or set ${variable} to a free port.`,
      );
    if (code === 'EACCES')
      throw new ConfigError(
        `${variable}=${port}: this process may not listen on ${where} (ports below 1024 need privileges): choose 1024 or more.`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new ConfigError(
        `${variable}=${port}: ${host} is not an address of this machine: set HOST (or METRICS_HOST) to one of its addresses.`,
      );
    throw error;
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
    const waited = await closeWhenQuiet(app.server, quietMs, timeoutMs / 2);
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
