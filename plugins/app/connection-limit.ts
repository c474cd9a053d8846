import { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { addressMatcher } from '../../lib/address-list.ts';

const refusal =
  '{"statusCode":429,"code":"TOO_MANY_CONNECTIONS","message":"Too many open connections from this address."}';
const refusalResponse =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: application/json; charset=utf-8\r\n' +
  `Content-Length: ${refusal.length}\r\n\r\n${refusal}`;

/** Open connections one client address may hold, as the shipped nginx's stream front allows. */
export const maxConnectionsPerAddress = 128;

export interface ConnectionLimitOptions {
  max?: number;
}

/**
 * One client cannot hold the process's sockets (decision 0026). Trusted proxies carry every
 * visitor's connections: the proxy bounds its clients. RATE_LIMIT_ALLOW_LIST (load generators) is not bounded.
 */
export default fp<ConnectionLimitOptions>(
  async (app, { max = maxConnectionsPerAddress }) => {
    const { trustProxy, rateLimitAllowList } = app.config;
    // A hop count or `true` trusts whoever connects: every peer may be the proxy.
    if (max === 0 || trustProxy === true || typeof trustProxy === 'number') return;
    const unbounded = addressMatcher([...rateLimitAllowList, ...(Array.isArray(trustProxy) ? trustProxy : [])]);
    const help = `Connections refused because their address had ${max} open.`;
    const refused = app.hasDecorator('metrics')
      ? new Counter({ name: 'http_connections_refused_total', help, registers: [app.metrics.registry] })
      : undefined;
    const open = new Map<string, number>();
    // Before Node's own listener: a refused connection never reaches the HTTP parser.
    app.server.prependListener('connection', (socket) => {
      if (socket.remoteAddress === undefined || unbounded(socket.remoteAddress)) return;
      // As the rate limits count it: IPv6 by its /64 network, whose addresses one client holds.
      const address = normalizeIP(socket.remoteAddress);
      const count = (open.get(address) ?? 0) + 1;
      if (count > max) {
        refused?.inc();
        return void socket.end(refusalResponse).destroySoon();
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = open.get(address)! - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  },
  { name: 'connection-limit', dependencies: ['config'] },
);
