import { Server } from 'node:net';

/**
 * Closes the listener of `server` once it accepted no connection for `quietMs`, at most after
 * `maxMs` (closing resets what is in the accept queue), right after a poll phase; resolves with the
 * ms waited. Only the socket: an HTTP close would stop Node's request timeouts (decision 0052).
 */
export function closeWhenQuiet(server: Server, quietMs: number, maxMs: number): Promise<number> {
  const started = Date.now();
  let last = started;
  const seen = () => (last = Date.now());
  server.on('connection', seen);
  return new Promise((done) => {
    const check = () => {
      const [now, timeLeft] = [Date.now(), maxMs - (Date.now() - started)];
      if (timeLeft > 0 && now - last < quietMs)
        return void setTimeout(check, Math.min(quietMs - (now - last), timeLeft));
      // A timer may fire before the poll phase has accepted what queued meanwhile: look again after.
      setImmediate(() => {
        if (Date.now() - started < maxMs && Date.now() - last < quietMs) return check();
        server.off('connection', seen);
        Server.prototype.close.call(server);
        done(Date.now() - started);
      });
    };
    check();
  });
}
