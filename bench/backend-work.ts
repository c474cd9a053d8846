// `--scenario backend`: what each kind of request asks of the database and of Redis, for the
// capacity model (docs/sizing.md#capacity). One local server on DATABASE_URL and REDIS_URL, without
// the bench's rate-limit allow list (so logins count as they do for visitors); each kind sent one
// at a time, the database queries read from the server's own metrics, Redis's from INFO, then the
// connections the server holds after 50 signed-in requests at once.
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, startLocalServer } from './local-server.ts';
import { article, benchUser, jsonBodyHeaders, pageHeaders } from './routes.ts';
import { register, root } from './scenarios.ts';

export interface BackendWork {
  kind: string;
  requests: number;
  queriesPerRequest: number;
  redisCommandsPerRequest: number;
}

const requestsPerKind = 200;

export async function runBackendWork(): Promise<{ kinds: BackendWork[]; connectionsUnderLoad: number }> {
  const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } = process.env;
  if (!databaseUrl || !redisUrl) throw new Error('--scenario backend needs DATABASE_URL and REDIS_URL');
  const metricsPort = await freePort();
  const server = await startLocalServer(root, {
    // The limits count, as for any visitor: the allow list names only a documentation address.
    env: { METRICS_PORT: String(metricsPort), RATE_LIMIT_ALLOW_LIST: '192.0.2.1' },
  });
  const redis = new Redis(redisUrl, { lazyConnect: true });
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    await Promise.all([redis.connect(), db.connect()]);
    // A run a minute before left this address's register and login counts in Redis: start afresh.
    const counts = await redis.keys('rate-limit:*:127.0.0.1');
    if (counts.length > 0) await redis.del(...counts);
    const user = benchUser(`backend-${Date.now().toString(36)}`);
    const token = await register(server.base, user);
    const html = await (await fetch(`${server.base}/bonus`, { headers: pageHeaders })).text();
    const build = /data-build-id="([^"]+)"/.exec(html)?.[1] ?? '';
    const signedIn = { ...pageHeaders, cookie: `token=${token}` };
    const kinds: Array<[string, (n: number) => Promise<Response>, number?]> = [
      ['anonymous page, cached', () => fetch(`${server.base}${article}`, { headers: pageHeaders })],
      ['anonymous page, rendered', (n) => fetch(`${server.base}/bonus?n=${n}`, { headers: pageHeaders })],
      [
        'anonymous payload',
        () => fetch(`${server.base}${article}/_payload.json?build=${build}`, { headers: pageHeaders }),
      ],
      ['signed-in page', () => fetch(`${server.base}${article}`, { headers: signedIn })],
      ['signed-in payload', () => fetch(`${server.base}/account/_payload.json?build=${build}`, { headers: signedIn })],
      [
        'GET /api/auth/me',
        () => fetch(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }),
      ],
      // The login limit allows 10 a minute from one address.
      [
        'POST /api/auth/login',
        () =>
          fetch(`${server.base}/api/auth/login`, {
            method: 'POST',
            headers: jsonBodyHeaders,
            body: JSON.stringify({ email: user.email, password: user.password }),
          }),
        8,
      ],
    ];
    const queries = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return [...text.matchAll(/^db_query_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    };
    // INFO counts itself once it has run: the later reading holds the earlier one.
    const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))?.[1]);
    const results: BackendWork[] = [];
    for (const [kind, send, count = requestsPerKind] of kinds) {
      await (await send(0)).arrayBuffer();
      const [queries0, commands0] = [await queries(), await commands()];
      for (let n = 1; n <= count; n++) {
        const response = await send(n);
        await response.arrayBuffer();
        if (response.status >= 400) throw new Error(`${kind}: HTTP ${response.status}`);
      }
      const [queries1, commands1] = [await queries(), await commands()];
      results.push({
        kind,
        requests: count,
        queriesPerRequest: (queries1 - queries0) / count,
        redisCommandsPerRequest: (commands1 - commands0 - 1) / count,
      });
      console.log(`  ${kind}: ${JSON.stringify(results.at(-1))}`);
    }
    for (let round = 0; round < 10; round++)
      await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          fetch(`${server.base}/bonus?round=${round}-${n}`, { headers: signedIn }).then((r) => r.arrayBuffer()),
        ),
      );
    const held = await db.query<{ count: string }>(
      "select count(*) from pg_stat_activity where application_name = 'asdas-site' and datname = current_database()",
    );
    return { kinds: results, connectionsUnderLoad: Number(held.rows[0]?.count ?? 0) };
  } finally {
    redis.disconnect();
    await db.end().catch(() => undefined);
    await server.stop();
  }
}

export function backendTable(kinds: BackendWork[]): string {
  const width = Math.max(...kinds.map((row) => row.kind.length));
  const lines = kinds.map(
    (row) =>
      `${row.kind.padEnd(width)}  ${row.queriesPerRequest.toFixed(2).padStart(7)}  ${row.redisCommandsPerRequest.toFixed(2).padStart(6)}`,
  );
  return [`${'request'.padEnd(width)}  queries   Redis`, ...lines].join('\n');
}
