import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';

export const initializationErrorLog = 'error caught during app initialization';

/** Start-up: config → app → listen, then stop gracefully on SIGTERM/SIGINT. */
async function main() {
  const dev = process.argv.includes('--dev');
  let app: FastifyInstance | undefined;
  const bootLogger = createLogger(process.env.LOG_LEVEL && /^[a-z]+$/.test(process.env.LOG_LEVEL) ? process.env.LOG_LEVEL : 'info');
  try {
    const config = loadConfig(process.env, { dev });
    const logger = createLogger(config.logLevel);
    app = await buildApp({ config, logger });
    await app.listen({ host: config.host, port: config.port });
    handleShutdown(app, config.shutdownTimeoutMs);
  } catch (error) {
    (app?.log ?? bootLogger).fatal({ err: error }, `${initializationErrorLog}: ${(error as Error).message}`);
    await app?.close().catch(() => undefined);
    process.exit(1);
  }
}

function handleShutdown(app: FastifyInstance, timeoutMs: number) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.shuttingDown = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'requests still in flight after the shutdown timeout; exiting');
      process.exit(1);
    }, timeoutMs);
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
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

void main();
