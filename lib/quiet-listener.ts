import type { Server } from 'node:net';

/**
 * Resolves once `server` has accepted no new connection for `quietMs`, or after `maxMs` at the
 * latest (with how long it waited). Closing a listener resets the connections still in the
 * kernel's accept queue; waiting for a quiet moment lets a load balancer that has stopped sending
 * (it saw /readyz fail) have every connection it opened answered first.
 *
 * It resolves in the event loop's check phase, right after a poll phase has accepted whatever was
 * queued: a listener closed then (synchronously) resets only what arrived in between.
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
      // A timer can fire after the loop was busy, before the poll phase accepts what queued
      // meanwhile: look again once it has.
      if (now - last >= quietMs) return void setImmediate(() => (Date.now() - last >= quietMs ? finish() : check()));
      setTimeout(check, Math.min(quietMs - (now - last), maxMs - (now - started))).unref();
    };
    check();
  });
}
