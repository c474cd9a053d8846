import type { Server as HttpServer } from 'node:http';
import { Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Closes the listener once it accepted nothing for `quietMs` (at most `maxMs`), right after a poll
 * phase, keeping Node's request timeouts running; resolves with the ms waited (decision 0052).
 */
export async function closeWhenQuiet(server: HttpServer, quietMs: number, maxMs: number): Promise<number> {
  const started = Date.now();
  let last = started;
  const seen = () => (last = Date.now());
  server.on('connection', seen);
  while (Date.now() - started < maxMs && Date.now() - last < quietMs) {
    await sleep(Math.min(quietMs - (Date.now() - last), maxMs - (Date.now() - started)));
    // A timer may fire before the poll phase has accepted what queued meanwhile: look after it.
    await new Promise(setImmediate);
  }
  server.off('connection', seen);
  Server.prototype.close.call(server);
  server.closeIdleConnections();
  return Date.now() - started;
}
