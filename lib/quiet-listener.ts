import type { Server } from 'node:net';

/**
 * Resolves once `server` has accepted no new connection for `quietMs`, or after `maxMs` at the
 * latest (with how long it waited). Closing a listener resets the connections still in the
 * kernel's accept queue; waiting for a quiet moment lets a load balancer that has stopped sending
 * (it saw /readyz fail) have every connection it opened answered first.
 */
export function noNewConnections(server: Server, quietMs: number, maxMs: number): Promise<number> {
  const started = Date.now();
  let last = started;
  const seen = () => (last = Date.now());
  server.on('connection', seen);
  return new Promise((done) => {
    const check = () => {
      const now = Date.now();
      if (now - last >= quietMs || now - started >= maxMs) {
        server.off('connection', seen);
        return done(now - started);
      }
      setTimeout(check, Math.min(quietMs - (now - last), maxMs - (now - started))).unref();
    };
    check();
  });
}
