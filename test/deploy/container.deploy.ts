// Stage 1 of `npm run test:deploy`: the image as one container with its data in a volume.
import t from 'tap';
import { runtimeFlags } from '../../lib/runtime-env.ts';
import {
  account,
  addressOf,
  deployEnv,
  exitCodeOf,
  figure,
  http,
  json,
  podman,
  readyAt,
  removeAll,
  tokenFrom,
  until,
} from './lib.ts';

const env = deployEnv();
const volume = `${env.prefix}-data`;
const names = [`${env.prefix}-single-1`, `${env.prefix}-single-2`];
t.teardown(async () => {
  await removeAll('container', names);
  await removeAll('volume', [volume]);
});

async function start(name: string): Promise<{ base: string; readySeconds: number }> {
  const started = Date.now();
  await podman([
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    env.network,
    '--volume',
    `${volume}:/data`,
    '--env',
    'PUBLIC_URL=http://site.example',
    env.image,
  ]);
  const base = `http://${await addressOf(name, env.network)}:3000`;
  await readyAt(base, name);
  return { base, readySeconds: (Date.now() - started) / 1000 };
}

t.test('the image: non-root, /data volume, health check on /readyz, no rebuild at start', async (t) => {
  const [inspected] = JSON.parse((await podman(['image', 'inspect', env.image])).stdout) as {
    Config: { User: string; Cmd: string[]; Volumes: Record<string, unknown>; Env: string[] };
    Healthcheck?: { Test: string[] };
  }[];
  const config = { ...inspected!.Config, Healthcheck: inspected!.Healthcheck };
  t.equal(config.User, '10001:10001', 'a numeric non-root user');
  t.same(config.Cmd, ['node', ...runtimeFlags, 'dist/node/server.js']);
  t.ok(config.Volumes['/data'], '/data is a volume');
  t.match(config.Healthcheck?.Test.join(' '), /\/readyz/);
  t.ok(config.Env.includes('NODE_ENV=production'));
  const layerBytes = Number(process.env.ASDAS_DEPLOY_LAYER_BYTES);
  t.ok(
    layerBytes > 0 && layerBytes <= 120e6,
    `the Dockerfile adds ${(layerBytes / 1e6).toFixed(1)} MB to its base (at most 120 MB)`,
  );
  const node = await podman(['run', '--rm', '--entrypoint', 'node', env.image, '-p', 'process.versions.node']);
  t.match(node.stdout.trim(), /^24\./, 'the image runs Node 24');
  // The memory settings of lib/runtime-env.ts reach every node process the image starts.
  const heap = await podman([
    'run',
    '--rm',
    '--entrypoint',
    'node',
    env.image,
    '-p',
    'JSON.stringify([require("v8").getHeapStatistics().heap_size_limit, process.env.MALLOC_ARENA_MAX, process.env.MALLOC_MMAP_THRESHOLD_])',
  ]);
  const [heapLimit, arenas, mmapThreshold] = JSON.parse(heap.stdout) as [number, string, string];
  t.ok(
    heapLimit >= 256 * 2 ** 20 && heapLimit < 292 * 2 ** 20,
    `V8's heap limit is the image's 256 MiB old space plus the young generation (${(heapLimit / 2 ** 20).toFixed(0)} MiB)`,
  );
  t.equal(arenas, '2', 'two malloc arenas');
  t.equal(mmapThreshold, '65536', 'blocks of 64 KiB and more mapped on their own');
  const files = await podman(['run', '--rm', '--entrypoint', 'sh', env.image, '-c', 'ls node_modules; ls dist']);
  t.notMatch(
    files.stdout,
    /^(vite|typescript|tsx|tap|playwright-core|esbuild|rolldown)$/m,
    'no build or test tools at run time',
  );
  t.match(files.stdout, /^build\.json$/m, 'the build is in the image');
});

let first = { base: '', readySeconds: 0 };
const user = account(`single-${Date.now().toString(36)}`);

t.test('starts, becomes ready, renders pages, runs as non-root', async (t) => {
  first = await start(names[0]!);
  figure(
    'single container: ready after start (embedded database created in the volume)',
    first.readySeconds.toFixed(1),
    's',
  );
  const home = await http(`${first.base}/`);
  t.equal(home.status, 200);
  t.match(home.body, /<html lang="en"/);
  t.match(home.body, /<link rel="canonical" href="http:\/\/site\.example\/"/, 'PUBLIC_URL from the environment');
  const thai = await http(`${first.base}/th/bonus`);
  t.equal(thai.status, 200);
  t.match(thai.body, /<html lang="th"/);
  const id = await podman(['exec', names[0]!, 'id', '-u']);
  t.equal(id.stdout.trim(), '10001', 'the server runs as uid 10001');
  const processUser = await podman(['top', names[0]!, 'user', 'args']);
  const command = ['node', ...runtimeFlags, 'dist/node/server.js'].join(' ');
  t.match(processUser.stdout, new RegExp(`asdas\\s+${command}`), `${command} itself, as the image user`);
  const health = await podman(['healthcheck', 'run', names[0]!], { allowFailure: true });
  t.equal(health.code, 0, `the image's HEALTHCHECK passes when run (${health.stdout.trim() || 'healthy'})`);

  const registered = await http(`${first.base}/api/auth/register`, { method: 'POST', ...json(user) });
  t.equal(registered.status, 201, 'a registration');
});

t.test('podman stop: drains, exits 0 within the grace period', async (t) => {
  const stopping = Date.now();
  const stop = podman(['stop', '--time', '20', names[0]!]);
  // The drain is visible from outside: /readyz turns 503 while pages are still served.
  await until(
    async () => (await http(`${first.base}/readyz`, { timeoutMs: 3000 })).status === 503,
    '/readyz 503 after SIGTERM',
    20_000,
  );
  const page = await http(`${first.base}/bonus`);
  t.equal(page.status, 200, 'a page is served during the drain');
  await stop;
  const seconds = (Date.now() - stopping) / 1000;
  figure('single container: podman stop (5 s drain included)', seconds.toFixed(1), 's');
  t.equal(await exitCodeOf(names[0]!), 0, 'exit code 0');
  t.ok(seconds < 20, `stopped in ${seconds.toFixed(1)} s, before podman would kill it (20 s)`);
  const logs = await podman(['logs', names[0]!]);
  t.match(logs.stdout + logs.stderr, /"msg":"stopped"/);
  await removeAll('container', [names[0]!]);
});

t.test('a new container on the same volume keeps the account', async (t) => {
  const second = await start(names[1]!);
  figure('single container: ready after start on an existing volume', second.readySeconds.toFixed(1), 's');
  const login = await http(`${second.base}/api/auth/login`, {
    method: 'POST',
    ...json({ email: user.email, password: user.password }),
  });
  t.equal(login.status, 200, 'the account registered in the first container logs in');
  const token = tokenFrom(login);
  const me = await http(`${second.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(JSON.parse(me.body).user.email, user.email);
});
