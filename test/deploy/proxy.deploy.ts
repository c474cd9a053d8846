// Stage 3 of `npm run test:deploy`: nginx with deploy/nginx/site.conf in front of two replicas on
// PostgreSQL and Redis, under a bounded load of page reads and registrations, while one replica
// is stopped with SIGTERM (it drains) and restarted, then the other is killed with SIGKILL and
// restarted. Clients must see no failed page read; every registration answered 201 must be in the
// database exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import {
  account,
  type HttpResponse,
  addressOf,
  deployEnv,
  exitCodeOf,
  figure,
  freePort,
  gatewayOf,
  http,
  json,
  podman,
  psql,
  readyAt,
  removeAll,
  repoRoot,
  run,
  tokenFrom,
  until,
} from './lib.ts';

const env = deployEnv();
const pod = `${env.prefix}-proxy`;
const postgres = `${env.prefix}-proxy-postgres`;
const redis = `${env.prefix}-proxy-redis`;
const replicas = [
  { name: `${env.prefix}-proxy-app-a`, port: 3001, metricsPort: 9465 },
  { name: `${env.prefix}-proxy-app-b`, port: 3002, metricsPort: 9466 },
];
const postgresPassword = randomBytes(12).toString('hex');
const redisPassword = randomBytes(12).toString('hex');
const nginxDir = join(env.workDir, 'nginx-proxy');
let nginx: ChildProcess | undefined;
let nginxExited: Promise<number | null> | undefined;

t.teardown(async () => {
  if (nginx && nginx.exitCode === null) {
    nginx.kill('SIGQUIT');
    await Promise.race([nginxExited, new Promise((done) => setTimeout(done, 5000))]);
    if (nginx.exitCode === null) nginx.kill('SIGKILL');
  }
  await removeAll('pod', [pod]);
});

let podAddress = '';
let base = '';
let nginxPort = 0;
const replicaBase = (index: number) => `http://${podAddress}:${replicas[index]!.port}`;

async function logsSince(container: string, since: Date): Promise<string> {
  const { stdout, stderr } = await podman(['logs', '--since', since.toISOString(), container]);
  return stdout + stderr;
}

/** A request log line of a request that came through nginx (the test's own checks come from the gateway). */
const proxiedRequest = (line: string) => line.includes('"msg":"incoming request"') && line.includes('"ip":"127.0.0.1"');

/** Waits until nginx sends a replica traffic again (its request log shows proxied requests). */
async function servingThroughNginx(index: number, since: Date) {
  await until(async () => {
    const proxied = (await logsSince(replicas[index]!.name, since)).split('\n').filter(proxiedRequest);
    return proxied.length >= 10 || undefined;
  }, `nginx sending requests to ${replicas[index]!.name} again`);
}

const playSecret = randomBytes(32).toString('base64url');
/** nginx runs on the host: the replicas see it at the network's gateway address. */
let proxyAddress = '';

/** A container in the pod: one network namespace for all, each its own ports. */
const runInPod = (name: string, args: string[]) => podman(['run', '--detach', '--pod', pod, '--name', name, ...args]);

/** Starts a replica in the pod; `extra` podman options (a volume) come before the image. */
async function runReplica(replica: (typeof replicas)[number], extra: string[] = []) {
  await runInPod(replica.name, [
    '--env',
    `PORT=${replica.port}`,
    '--env',
    `METRICS_PORT=${replica.metricsPort}`,
    '--env',
    `DATABASE_URL=postgres://asdas:${postgresPassword}@127.0.0.1:5432/asdas`,
    '--env',
    `REDIS_URL=redis://:${redisPassword}@127.0.0.1:6379`,
    '--env',
    `PLAY_SECRET=${playSecret}`,
    // Only nginx's address is believed; PUBLIC_URL is another origin, so form posts are
    // accepted here because of the forwarded host and its port.
    '--env',
    `TRUST_PROXY=${proxyAddress}`,
    '--env',
    'PUBLIC_URL=https://asdas.example.com',
    // The load registers from one address.
    '--env',
    'REGISTER_RATE_LIMIT_PER_MINUTE=1000000',
    ...extra,
    env.image,
  ]);
}

t.test('two replicas on PostgreSQL and Redis, nginx in front on a non-default port', async (t) => {
  proxyAddress = await gatewayOf(env.network);
  await podman(['pod', 'create', '--name', pod, '--network', env.network]);
  await runInPod(postgres, ['--env', `POSTGRES_PASSWORD=${postgresPassword}`, env.servicesImage, 'postgres']);
  await runInPod(redis, ['--env', `REDIS_PASSWORD=${redisPassword}`, env.servicesImage, 'redis']);
  await until(async () => (await psql(postgres, 'select 1'))[0] === '1', 'PostgreSQL');

  for (const replica of replicas) await runReplica(replica);
  const infra = (await podman(['pod', 'inspect', pod, '--format', '{{.InfraContainerID}}'])).stdout.trim();
  podAddress = await addressOf(infra, env.network);
  await Promise.all(replicas.map((replica, index) => readyAt(replicaBase(index), replica.name)));

  // nginx: deploy/nginx/site.conf itself; this run's replicas in upstream.conf (the shipped one with
  // the server lines replaced) and its port in listen.conf, next to a main config of its own.
  nginxPort = await freePort();
  base = `http://127.0.0.1:${nginxPort}`;
  mkdirSync(join(nginxDir, 'logs'), { recursive: true });
  mkdirSync(join(nginxDir, 'tmp'), { recursive: true });
  const shippedUpstream = readFileSync(join(repoRoot, 'deploy/nginx/upstream.conf'), 'utf8');
  const upstream = shippedUpstream
    .replace('server app-1:3000', `server ${podAddress}:${replicas[0]!.port}`)
    .replace('server app-2:3000', `server ${podAddress}:${replicas[1]!.port}`);
  t.not(upstream, shippedUpstream, 'the shipped upstream names app-1 and app-2');
  writeFileSync(join(nginxDir, 'upstream.conf'), upstream);
  writeFileSync(join(nginxDir, 'listen.conf'), `listen 127.0.0.1:${nginxPort};\n`);
  writeFileSync(
    join(nginxDir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 2;',
      `pid ${join(nginxDir, 'nginx.pid')};`,
      `error_log ${join(nginxDir, 'logs/error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(nginxDir, 'logs/access.log')};`,
      '  client_body_temp_path tmp/body;',
      '  proxy_temp_path tmp/proxy;',
      '  fastcgi_temp_path tmp/fastcgi;',
      '  uwsgi_temp_path tmp/uwsgi;',
      '  scgi_temp_path tmp/scgi;',
      '  include upstream.conf;',
      `  include ${join(repoRoot, 'deploy/nginx/site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const test = await run('nginx', ['-t', '-p', `${nginxDir}/`, '-c', join(nginxDir, 'nginx.conf')], {
    allowFailure: true,
  });
  t.equal(test.code, 0, `nginx -t accepts the configuration ${test.stderr.trim()}`);
  nginx = spawn('nginx', ['-p', `${nginxDir}/`, '-c', join(nginxDir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let nginxErrors = '';
  nginx.stderr?.on('data', (chunk) => (nginxErrors += chunk));
  nginxExited = new Promise((done) => nginx!.on('exit', (code) => done(code)));
  await until(async () => (await http(`${base}/healthz`)).status === 200, `nginx on ${base} ${nginxErrors}`, 30_000);
  t.pass(`nginx listens on ${base}`);
  setUp = true;
});

/** The checks below need the setup above; without it they would only wait and time out. */
let setUp = false;
const needsSetup = (t: Test) => {
  if (!setUp) t.fail('the replicas and nginx did not start (see above)');
  return setUp;
};

t.test('what the proxy sends: host with its port, client address, scheme, request id', async (t) => {
  if (!needsSetup(t)) return;
  const page = await http(`${base}/bonus`, {
    headers: { 'x-request-id': 'deploy-trace-1', 'x-forwarded-for': '203.0.113.9' },
  });
  t.equal(page.status, 200);
  t.equal(page.headers['x-request-id'], 'deploy-trace-1', 'a sane request id passes both ways');
  const generated = await http(`${base}/bonus`);
  t.match(generated.headers['x-request-id'], /^[0-9a-f]{32}$/, "otherwise nginx's $request_id");
  const logs = (await Promise.all(replicas.map((replica) => logsSince(replica.name, new Date(0))))).join('\n');
  const line = logs
    .split('\n')
    .find((entry) => entry.includes('"reqId":"deploy-trace-1"') && entry.includes('incoming request'));
  t.ok(line, 'the replica logged the same id');
  t.match(line, /"ip":"127\.0\.0\.1"/, 'the client address nginx saw, not a forged X-Forwarded-For entry, not nginx');
  t.match(line, new RegExp(`"host":"127\\.0\\.0\\.1:${nginxPort}"`), 'Host with its port');

  const user = account(`proxy-${Date.now().toString(36)}`);
  const registered = await http(`${base}/api/auth/register`, {
    method: 'POST',
    ...json(user),
    headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
  });
  t.equal(registered.status, 201);
  t.match(String(registered.headers['set-cookie']), /Secure/, 'the session cookie is Secure: PUBLIC_URL is https');
  tokenFrom(registered);

  const form = (origin: string) =>
    http(`${base}/login`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
  const login = await form(base);
  t.equal(login.status, 303, 'a no-JavaScript login on a non-default port is accepted');
  t.equal(login.headers.location, '/');
  const elsewhere = await form(`http://127.0.0.1:${nginxPort + 1}`);
  t.equal(elsewhere.status, 403, 'another port is another origin');
  const claimed = await http(`${base}/login`, {
    method: 'POST',
    headers: {
      origin: `https://127.0.0.1:${nginxPort}`,
      'x-forwarded-proto': 'https',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
  });
  t.equal(
    claimed.status,
    403,
    "X-Forwarded-Proto is nginx's $scheme (http here), not the client's claim: an https origin is another origin",
  );

  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
  t.ok(script, 'the page names a hashed script');
  const firstAsset = await http(`${base}${script}`);
  const secondAsset = await http(`${base}${script}`);
  t.equal(secondAsset.status, 200);
  t.equal(secondAsset.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.equal(
    secondAsset.headers['x-cache-status'],
    'HIT',
    `nginx serves assets from its cache (first: ${String(firstAsset.headers['x-cache-status'])})`,
  );

  const metrics = await http(`${base}/metrics`);
  t.notMatch(metrics.body, /# TYPE/, 'metrics are not reachable through the proxy');

  const tooLarge = await http(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"email":"${'a'.repeat(70_000)}"}`,
  });
  t.equal(tooLarge.status, 413, "bodies above the app's body limit stop at nginx");
  t.same(
    JSON.parse(tooLarge.body),
    { statusCode: 413, code: 'BODY_TOO_LARGE', message: 'The body is larger than this address accepts.' },
    "in the app's JSON shape",
  );
});

/** How nginx's micro-cache answered: HIT, MISS, BYPASS, EXPIRED, STALE, UPDATING. */
const cacheStatus = (response: HttpResponse) => String(response.headers['x-cache-status']);
const signedIn = /data-testid="signed-in"/;
const buildOf = (html: string) => /data-build-id="([^"]+)"/.exec(html)?.[1];
const cookieFrom = (response: HttpResponse, name: string) =>
  (response.headers['set-cookie'] ?? []).map((line) => new RegExp(`^${name}=([^;]*)`).exec(line)?.[1]).find(Boolean);

t.test('the micro-cache: anonymous pages from nginx, one request per page to the replicas', async (t) => {
  if (!needsSetup(t)) return;
  const first = await http(`${base}/th/terms-apply`);
  t.equal(first.status, 200);
  t.match(first.headers['cache-control'], /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  const again = await http(`${base}/th/terms-apply`);
  t.equal(cacheStatus(again), 'HIT', `the second visit is nginx's copy (the first: ${cacheStatus(first)})`);
  t.equal(again.body, first.body, 'the same page');

  // 40 visitors at once on a payload nobody asked for yet: the replicas answer it once.
  const since = new Date();
  const path = `/th/author/_payload.json?build=${buildOf(first.body)}`;
  const answers = await Promise.all(Array.from({ length: 40 }, () => http(`${base}${path}`)));
  t.same([...new Set(answers.map((answer) => answer.status))], [200], 'all 40 answered');
  // Each request a replica answered was logged before its answer; podman's log may lag behind.
  const reached = await until(async () => {
    const logs = await Promise.all(replicas.map((replica) => logsSince(replica.name, since)));
    const lines = logs.join('\n').split('\n');
    const found = lines.filter((line) => proxiedRequest(line) && line.includes(`"url":"${path}"`));
    return found.length > 0 ? found : undefined;
  }, `the payload's request in a replica's log`);
  t.equal(reached.length, 1, `one request of 40 reached a replica (${reached.length})`);
  figure('proxy: 40 requests at once for one uncached payload, requests the replicas saw', reached.length);
});

t.test('a session never meets the micro-cache: signed in at once, signed out at once', async (t) => {
  if (!needsSetup(t)) return;
  const visitor = account(`cache-${Date.now().toString(36)}`);
  t.equal((await http(`${base}/api/auth/register`, { method: 'POST', ...json(visitor) })).status, 201);
  await http(`${base}/bonus`);
  const cached = await http(`${base}/bonus`);
  t.equal(cacheStatus(cached), 'HIT', 'the anonymous page is in the micro-cache');
  t.notMatch(cached.body, signedIn);

  const form = { origin: base, 'content-type': 'application/x-www-form-urlencoded' };
  const login = await http(`${base}/login?redirect=%2Fbonus`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ email: visitor.email, password: visitor.password }).toString(),
  });
  t.equal(login.status, 303, 'logged in without JavaScript');
  t.equal(login.headers['cache-control'], 'private, no-store');
  const token = tokenFrom(login);
  const flash = cookieFrom(login, 'flash');
  const landed = await http(`${base}${login.headers.location}`, {
    headers: { cookie: `token=${token}${flash ? `; flash=${flash}` : ''}` },
  });
  t.match(landed.body, signedIn, 'the next page shows the visitor signed in');
  t.equal(cacheStatus(landed), 'BYPASS');
  t.equal(landed.headers['cache-control'], 'private, no-store');

  let crossed = 0;
  for (let n = 0; n < 20; n++) {
    const [mine, anonymous, payload] = await Promise.all([
      http(`${base}/bonus`, { headers: { cookie: `lang=en; token=${token}` } }),
      http(`${base}/bonus`),
      http(`${base}/account/_payload.json?build=${buildOf(cached.body)}`, { headers: { cookie: `token=${token}` } }),
    ]);
    const personalPayload =
      cacheStatus(payload) === 'BYPASS' && payload.headers['cache-control'] === 'private, no-store';
    if (!signedIn.test(mine.body) || signedIn.test(anonymous.body) || !personalPayload) crossed++;
  }
  t.equal(crossed, 0, 'in 20 rounds side by side, the signed-in and the anonymous page never crossed');

  const logout = await http(`${base}/logout`, { method: 'POST', headers: { ...form, cookie: `token=${token}` } });
  t.equal(logout.status, 303, 'logged out');
  const notice = cookieFrom(logout, 'flash');
  const after = await http(`${base}${logout.headers.location}`, {
    headers: notice ? { cookie: `flash=${notice}` } : {},
  });
  t.notMatch(after.body, signedIn, 'the next page shows the visitor signed out');
  const old = await http(`${base}/bonus`, { headers: { cookie: `token=${token}` } });
  t.notMatch(old.body, signedIn, 'the revoked token signs nobody in, through the proxy either');
  t.equal(cacheStatus(old), 'BYPASS', 'nor is it answered from the micro-cache');
});

/**
 * What a failed read looked like from each side, so a failure on a loaded machine can be told
 * apart from a proxy or replica fault: the failures by second and kind, nginx's error log, and the
 * 5xx answers and warnings each replica logged while the load ran.
 */
async function explainFailures(t: Test, failures: LoadCounts['readFailures'], since: Date) {
  const bySecond = new Map<string, number>();
  for (const failure of failures) {
    const key = `${Math.floor(failure.at / 1000)} s: ${failure.problem}`;
    bySecond.set(key, (bySecond.get(key) ?? 0) + 1);
  }
  t.comment(`failed reads by second of load and kind: ${JSON.stringify(Object.fromEntries(bySecond))}`);
  const nginxLog = readFileSync(join(nginxDir, 'logs/error.log'), 'utf8');
  const messages = new Map<string, number>();
  for (const line of nginxLog.split('\n').filter(Boolean)) {
    // "... [error] 12#12: *345 connect() failed (111: Connection refused) while connecting to upstream, client: ..."
    const message = line.replace(/^.*?\[(\w+)\] \d+#\d+: (\*\d+ )?/, '$1: ').replace(/, client: .*$/, '');
    messages.set(message, (messages.get(message) ?? 0) + 1);
  }
  t.comment(`nginx error log, distinct messages: ${JSON.stringify(Object.fromEntries(messages))}`);
  for (const replica of replicas) {
    const lines = (await logsSince(replica.name, since)).split('\n');
    const serverErrors = lines.filter((line) => /"statusCode":5\d\d/.test(line) || /"level":[4-6]\d/.test(line));
    t.comment(
      `${replica.name}: ${serverErrors.length} 5xx answers or warnings while the load ran; first ones:\n${serverErrors.slice(0, 8).join('\n')}`,
    );
  }
}

interface LoadCounts {
  reads: number;
  readFailures: { path: string; problem: string; at: number }[];
  created: string[];
  registrationOutcomes: Record<string, number>;
}

/** Page reads and registrations through nginx until `stop` is called. */
function startLoad(readers: number, registrars: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: readers + registrars });
  const counts: LoadCounts = { reads: 0, readFailures: [], created: [], registrationOutcomes: {} };
  const paths = [
    '/',
    '/th',
    '/bonus',
    '/th/bonus',
    '/asdas',
    '/asdas/rtp-explained',
    '/bonus/_payload.json',
    '/th/asdas/_payload.json',
  ];
  let running = true;
  const started = Date.now();
  const send = (path: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
    new Promise<{ status: number; body: string }>((done, fail) => {
      const req = httpRequest(
        `${base}${path}`,
        { agent, method: options.method ?? 'GET', headers: options.headers, timeout: 20_000 },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => done({ status: response.statusCode ?? 0, body }));
          response.on('error', fail);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out after 20 s')));
      req.on('error', fail);
      req.end(options.body);
    });

  const reader = async (offset: number) => {
    for (let n = offset; running; n++) {
      const path = paths[n % paths.length]!;
      try {
        const { status, body } = await send(path);
        const complete = path.endsWith('.json')
          ? (JSON.parse(body) as object) !== null
          : body.trimEnd().endsWith('</html>');
        if (status === 200 && complete) counts.reads++;
        else
          counts.readFailures.push({
            path,
            problem: `HTTP ${status}${complete ? '' : ', incomplete body'}`,
            at: Date.now() - started,
          });
      } catch (error) {
        counts.readFailures.push({ path, problem: (error as Error).message, at: Date.now() - started });
      }
    }
  };
  const registrar = async (lane: number) => {
    for (let n = 0; running; n++) {
      const user = account(`load-${env.prefix}-${lane}-${n}`);
      let outcome: string;
      try {
        const { status } = await send('/api/auth/register', { method: 'POST', ...json(user) });
        outcome = String(status);
        if (status === 201) counts.created.push(user.email);
      } catch (error) {
        outcome = `error: ${(error as Error).message}`;
      }
      counts.registrationOutcomes[outcome] = (counts.registrationOutcomes[outcome] ?? 0) + 1;
    }
  };
  const workers = [
    ...Array.from({ length: readers }, (_, index) => reader(index)),
    ...Array.from({ length: registrars }, (_, index) => registrar(index)),
  ];
  return {
    counts,
    elapsedSeconds: () => (Date.now() - started) / 1000,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      agent.destroy();
    },
  };
}

t.test(
  'under load: SIGTERM one replica (drain), SIGKILL the other; no failed page read, every 201 stored once',
  async (t) => {
    if (!needsSetup(t)) return;
    const loadStarted = new Date();
    const load = startLoad(4, 2);
    let restartedB: Date | undefined;
    try {
      await until(
        async () => (load.counts.reads >= 40 && load.counts.created.length >= 2) || undefined,
        'the load to be running',
      );

      // 1. SIGTERM to replica A, as Kubernetes or podman stop sends it: /readyz turns 503 while it still serves.
      const stopping = Date.now();
      await podman(['kill', '--signal', 'TERM', replicas[0]!.name]);
      await until(
        async () => (await http(`${replicaBase(0)}/readyz`, { timeoutMs: 3000 })).status === 503,
        'replica A draining',
        20_000,
      );
      const served = await http(`${replicaBase(0)}/bonus`);
      t.equal(served.status, 200, 'replica A still serves pages while it drains');
      await podman(['wait', replicas[0]!.name]);
      t.equal(await exitCodeOf(replicas[0]!.name), 0, 'replica A exits 0 after the drain');
      figure('proxy: replica A from SIGTERM to exit (5 s drain)', ((Date.now() - stopping) / 1000).toFixed(1), 's');

      // 2. A starts again (a rolling update's new pod); nginx sends it traffic again.
      const restartedA = new Date();
      await podman(['start', replicas[0]!.name]);
      await readyAt(replicaBase(0), replicas[0]!.name);
      figure(
        'proxy: replica A ready after restart (PostgreSQL, migrations already applied)',
        ((Date.now() - restartedA.getTime()) / 1000).toFixed(1),
        's',
      );
      await servingThroughNginx(0, restartedA);

      // 3. Replica B dies without warning, with requests in flight, and is restarted.
      await podman(['kill', '--signal', 'KILL', replicas[1]!.name]);
      await podman(['wait', replicas[1]!.name]);
      t.equal(await exitCodeOf(replicas[1]!.name), 137, 'replica B was killed');
      restartedB = new Date();
      await podman(['start', replicas[1]!.name]);

      // Bounded: 25 s of load in all (or the end of the faults, on a slow machine). B finishes
      // starting under the load or after it.
      await until(async () => load.elapsedSeconds() >= 25 || undefined, '25 s of load');
    } finally {
      await load.stop();
    }
    await readyAt(replicaBase(1), replicas[1]!.name);
    figure(
      'proxy: replica B ready after restart',
      ((Date.now() - (restartedB ?? loadStarted).getTime()) / 1000).toFixed(1),
      's',
    );
    for (const replica of replicas) {
      const status = await podman(['exec', replica.name, 'grep', '-E', '^Vm(HWM|RSS)', '/proc/1/status']);
      figure(
        `proxy: ${replica.name.slice(-5)} memory (peak since its last start, now)`,
        status.stdout.replace(/\s+/g, ' ').trim(),
      );
    }
    const { counts } = load;
    figure('proxy: load duration (4 readers, 2 registering)', load.elapsedSeconds().toFixed(1), 's');
    figure('proxy: page reads answered 200 through nginx', counts.reads);
    figure('proxy: page reads failed', counts.readFailures.length);
    figure('proxy: registrations answered 201', counts.created.length);
    figure('proxy: registration outcomes', JSON.stringify(counts.registrationOutcomes));
    // The load stops itself once the faults are over and 25 s have passed; how long the faults take
    // depends on the machine, so the duration is a figure, not a limit.
    t.ok(counts.reads > 100, `${counts.reads} page reads`);
    if (counts.readFailures.length > 0) await explainFailures(t, counts.readFailures, loadStarted);
    t.same(counts.readFailures, [], 'no failed page read');
    t.ok(counts.created.length > 0, `${counts.created.length} registrations answered 201`);

    const rows = await psql(
      postgres,
      `select email || ' ' || count(*) from users where email like 'load-${env.prefix}-%' group by email`,
    );
    const stored = new Map(
      rows.map((row) => row.split(' ') as [string, string]).map(([email, count]) => [email, Number(count)]),
    );
    figure('proxy: registrations in the database', stored.size);
    const missing = counts.created.filter((email) => !stored.has(email));
    const twice = counts.created.filter((email) => (stored.get(email) ?? 0) !== 1 && stored.has(email));
    t.same(missing, [], 'every registration answered 201 is in the database');
    t.same(twice, [], 'each exactly once');
    t.ok(stored.size >= counts.created.length, 'the database holds no fewer accounts than were confirmed');
  },
);

t.test("a new build: its pages replace the old ones in nginx's micro-cache within seconds", async (t) => {
  if (!needsSetup(t)) return;
  await http(`${base}/asdas`);
  const before = await http(`${base}/asdas`);
  t.equal(cacheStatus(before), 'HIT', 'the old build page is in the micro-cache');
  const oldBuild = buildOf(before.body);
  const newBuild = `${oldBuild}-next`;
  // The same image under another build id: every page names its build (data-build-id).
  const buildFile = join(env.workDir, 'next-build.json');
  writeFileSync(buildFile, JSON.stringify({ id: newBuild, timestamp: Date.now() }), { mode: 0o644 });
  for (const [index, replica] of replicas.entries()) {
    await podman(['stop', '--time', '10', replica.name]);
    await podman(['rm', replica.name]);
    await runReplica(replica, ['--volume', `${buildFile}:/app/dist/build.json:ro`]);
    await readyAt(replicaBase(index), replica.name);
  }
  const replaced = Date.now();
  const answers: string[] = [];
  await until(async () => {
    const page = await http(`${base}/asdas`);
    answers.push(`${cacheStatus(page)} ${buildOf(page.body) === newBuild ? 'new' : 'old'}`);
    return buildOf(page.body) === newBuild || undefined;
  }, 'the new build through nginx');
  const seconds = (Date.now() - replaced) / 1000;
  figure('proxy: new build first seen through the micro-cache, after the replicas were ready', seconds.toFixed(1), 's');
  t.ok(
    seconds <= 5 + 30,
    `within s-maxage and stale-while-revalidate (${seconds.toFixed(1)} s: ${answers.join(', ')})`,
  );
  const later = await Promise.all(Array.from({ length: 10 }, () => http(`${base}/asdas`)));
  t.same(
    later.map((page) => buildOf(page.body)),
    later.map(() => newBuild),
    'from then on only the new build',
  );
});

// The replicas through nginx with its micro-cache and without (ASDAS_DEPLOY_BENCH=1): figures for
// docs/sizing.md, not limits.
t.test(
  'npm run bench through nginx, micro-cache on and off',
  { skip: process.env.ASDAS_DEPLOY_BENCH === '1' ? false : 'figures, not checks: ASDAS_DEPLOY_BENCH=1 runs it' },
  async (t) => {
    if (!needsSetup(t)) return;
    const bench = async (label: string) => {
      const routes = ['/', '/th', 'article', '/login', 'GET /api/auth/me'].join(',');
      const { stdout, code } = await run(
        'npm',
        ['run', 'bench', '--', '--url', base, '--duration', '10', '--warmup', '2', '--routes', routes],
        { allowFailure: true },
      );
      t.equal(code, 0, `bench ${label} ran`);
      const lines = stdout.split('\n');
      const header = lines.findIndex((line) => /^route\s+req\/s/.test(line));
      const end = lines.findIndex((line, index) => index > header && line.trim() === '');
      const rows = header === -1 ? [] : lines.slice(header, end === -1 ? undefined : end);
      t.ok(rows.length > 2, 'the bench printed its table');
      t.comment(`micro-cache ${label}:\n${rows.join('\n')}`);
      figure(`proxy: bench through nginx, micro-cache ${label}`, `\n${rows.join('\n')}`);
    };
    await bench('on');
    const shipped = readFileSync(join(repoRoot, 'deploy/nginx/site.conf'), 'utf8');
    const off = shipped.replace('proxy_cache asdas_pages;', 'proxy_cache off;');
    t.not(off, shipped, 'the shipped config names its page cache');
    writeFileSync(join(nginxDir, 'site-no-micro-cache.conf'), off);
    const main = readFileSync(join(nginxDir, 'nginx.conf'), 'utf8');
    writeFileSync(
      join(nginxDir, 'nginx.conf'),
      main.replace(join(repoRoot, 'deploy/nginx/site.conf'), join(nginxDir, 'site-no-micro-cache.conf')),
    );
    await run('nginx', ['-s', 'reload', '-p', `${nginxDir}/`, '-c', join(nginxDir, 'nginx.conf')]);
    await until(async () => (await http(`${base}/bonus`)).headers['x-cache-status'] === undefined, 'nginx without it');
    await bench('off');
  },
);
