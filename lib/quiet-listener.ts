import type { Server } from 'node:net';

/**
 * Resolves (with the ms waited) once `server` accepted no connection for `quietMs`, at most after
 * `maxMs`: closing a listener resets what is still in the accept queue. It resolves right after a
 * poll phase, so a listener closed then resets only what arrived in between.
 */
export function noNewConnections(server: Server, quietMs: number, maxMs: number): Promise<number> {
  const started = Date.now();
  let last = started;
  const seen = () => (last = Date.now());
  server.on('connection', seen);
  return new Promise((done) => {
    const finish = () => {
      server.off('connection', seen);
      done(Date.now() - started);
    };
    const check = () => {
      const now = Date.now();
      if (now - started >= maxMs) return void setImmediate(finish);
      // A timer may fire before the poll phase has accepted what queued meanwhile: look again after.
      if (now - last >= quietMs) return void setImmediate(() => (Date.now() - last >= quietMs ? finish() : check()));
      setTimeout(check, Math.min(quietMs - (now - last), maxMs - (now - started))).unref();
    };
    check();
  });
}
