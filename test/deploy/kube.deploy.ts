// Stage 2 of `npm run test:deploy`: deploy/kubernetes run by `podman kube play` (the ConfigMap,
// Deployment and Service files of the kustomization), replicas on PostgreSQL and Redis.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseAllDocuments, parse, stringify } from 'yaml';
import { migrations } from '../../lib/db/migrations.ts';
import {
  account,
  addressOf,
  deployEnv,
  figure,
  gatewayOf,
  http,
  json,
  podman,
  psql,
  readyAt,
  removeAll,
  repoRoot,
  startSmtpSink,
  tokenFrom,
  until,
  type SmtpSink,
} from './lib.ts';

const env = deployEnv();
const manifests = join(repoRoot, 'deploy/kubernetes');
const servicesPod = `${env.prefix}-db`;
const postgres = `${env.prefix}-postgres`;
const redis = `${env.prefix}-redis`;
const kubeFile = join(env.workDir, 'kube-play.yaml');
const postgresPassword = randomBytes(12).toString('hex');
const redisPassword = randomBytes(12).toString('hex');

type Doc = Record<string, any>;
const load = (file: string): Doc[] =>
  parseAllDocuments(readFileSync(join(manifests, file), 'utf8')).map((doc) => doc.toJS() as Doc);

const kustomization = parse(readFileSync(join(manifests, 'kustomization.yaml'), 'utf8')) as {
  resources: string[];
  images: { name: string }[];
};
const resources = kustomization.resources.flatMap(load);
const configMap = resources.find((doc) => doc.kind === 'ConfigMap')!;
const deployment = resources.find((doc) => doc.kind === 'Deployment')!;
const service = resources.find((doc) => doc.kind === 'Service')!;
const secretExample = load('secret.example.yaml')[0]!;
const deploymentName = deployment.metadata.name as string;
const replicas = deployment.spec.replicas as number;

let secretName = '';
let smtp: SmtpSink | undefined;
t.teardown(async () => {
  await smtp?.close();
  await podman(['kube', 'down', kubeFile], { allowFailure: true });
  await removeAll('pod', [
    servicesPod,
    ...Array.from({ length: replicas }, (_, index) => `${deploymentName}-pod-${index}`),
  ]);
  if (secretName) await removeAll('secret', [secretName]);
});

const pods: { name: string; container: string; base: string }[] = [];

t.test('PostgreSQL and Redis for the replicas', async (t) => {
  await podman(['pod', 'create', '--name', servicesPod, '--network', env.network]);
  await podman([
    'run',
    '--detach',
    '--pod',
    servicesPod,
    '--name',
    postgres,
    '--env',
    `POSTGRES_PASSWORD=${postgresPassword}`,
    env.servicesImage,
    'postgres',
  ]);
  await podman([
    'run',
    '--detach',
    '--pod',
    servicesPod,
    '--name',
    redis,
    '--env',
    `REDIS_PASSWORD=${redisPassword}`,
    env.servicesImage,
    'redis',
  ]);
  await until(async () => (await psql(postgres, 'select 1'))[0] === '1', 'PostgreSQL');
  await until(
    async () =>
      (
        await podman(['exec', '--env', `REDISCLI_AUTH=${redisPassword}`, redis, 'redis-cli', 'ping'], {
          allowFailure: true,
        })
      ).stdout.trim() === 'PONG',
    'Redis',
  );
  t.pass('both answer');
});

t.test('kube play: the Deployment with the ConfigMap and the Secret, both replicas ready', async (t) => {
  const infra = (await podman(['pod', 'inspect', servicesPod, '--format', '{{.InfraContainerID}}'])).stdout.trim();
  const servicesAddress = await addressOf(infra, env.network);

  // The Secret as an operator fills it in (secret.example.yaml names the keys). podman 4.3 reads a
  // podman secret holding the data as JSON, base64 per key, instead of a Secret document.
  secretName = secretExample.metadata.name as string;
  smtp = await startSmtpSink(await gatewayOf(env.network));
  const values: Record<string, string> = {
    PLAY_SECRET: randomBytes(32).toString('base64url'),
    SMTP_URL: smtp.url,
    DATABASE_URL: `postgres://asdas:${postgresPassword}@${servicesAddress}:5432/asdas`,
    REDIS_URL: `redis://:${redisPassword}@${servicesAddress}:6379`,
  };
  t.same(
    Object.keys(secretExample.stringData).sort(),
    Object.keys(values).sort(),
    'the example names every secret the replicas need',
  );
  const data = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  );
  const secretFile = join(env.workDir, 'secret.json');
  writeFileSync(secretFile, JSON.stringify(data), { mode: 0o600 });
  await podman(['secret', 'create', secretName, secretFile]);
  rmSync(secretFile);

  // What kustomize's `images:` does; and podman 4.3 publishes every containerPort on the host
  // (hostPort defaults to it), which Kubernetes never does and which collides between replicas:
  // pods are reached at their own addresses here, as the Service reaches them.
  const played = structuredClone(deployment);
  for (const container of played.spec.template.spec.containers as Doc[]) {
    t.equal(container.image, kustomization.images[0]!.name, 'the image kustomize replaces');
    container.image = env.image;
    delete container.ports;
  }
  writeFileSync(kubeFile, [configMap, played, service].map((doc) => stringify(doc)).join('---\n'));

  const started = Date.now();
  await podman(['kube', 'play', '--network', env.network, kubeFile]);
  for (let index = 0; index < replicas; index++) {
    const name = `${deploymentName}-pod-${index}`;
    const podInfra = (await podman(['pod', 'inspect', name, '--format', '{{.InfraContainerID}}'])).stdout.trim();
    pods.push({ name, container: `${name}-site`, base: `http://${await addressOf(podInfra, env.network)}:3000` });
  }
  await Promise.all(pods.map((pod) => readyAt(pod.base, pod.container)));
  figure(
    `kube play: ${replicas} replicas ready (migrations under the lock)`,
    ((Date.now() - started) / 1000).toFixed(1),
    's',
  );
  t.equal(pods.length, 2, 'two replicas');
  for (const pod of pods) t.equal((await http(`${pod.base}/readyz`)).status, 200, `${pod.name} ready`);
});

t.test('each pod serves Prometheus metrics on the annotated port', async (t) => {
  const port = deployment.spec.template.metadata.annotations['prometheus.io/port'] as string;
  const path = deployment.spec.template.metadata.annotations['prometheus.io/path'] as string;
  for (const pod of pods) {
    const metrics = await http(`${pod.base.replace(/:3000$/, `:${port}`)}${path}`);
    t.equal(metrics.status, 200, `${pod.name}:${port}${path}`);
    t.match(metrics.body, /^# TYPE http_requests_total counter$/m);
  }
});

t.test("the pod's security context holds: uid 10001, read-only root filesystem, writable /tmp", async (t) => {
  const pod = pods[0]!;
  t.equal((await podman(['exec', pod.container, 'id', '-u'])).stdout.trim(), '10001');
  const write = await podman(['exec', pod.container, 'sh', '-c', 'touch /app/written 2>&1'], { allowFailure: true });
  t.not(write.code, 0, 'the root filesystem refuses writes');
  t.match(write.stdout, /Read-only file system/);
  t.equal(
    (await podman(['exec', pod.container, 'touch', '/tmp/written'], { allowFailure: true })).code,
    0,
    '/tmp is writable',
  );
});

t.test('migrations were applied once, by one replica', async (t) => {
  const logs = await Promise.all(
    pods.map(async (pod) => {
      const { stdout, stderr } = await podman(['logs', pod.container]);
      return stdout + stderr;
    }),
  );
  const appliers = logs.filter((text) => /"msg":"applied migrations: /.test(text));
  t.equal(appliers.length, 1, 'exactly one replica applied them');
  const rows = await psql(postgres, 'select name from kysely_migration order by name');
  t.same(rows, Object.keys(migrations).sort(), 'each migration recorded once');
  t.ok(
    logs.every((text) => /"database":"postgres:\/\//.test(text)),
    'both replicas on PostgreSQL',
  );
});

t.test('a session made through one replica works on the other', async (t) => {
  const user = account(`kube-${Date.now().toString(36)}`);
  const registered = await http(`${pods[0]!.base}/api/auth/register`, { method: 'POST', ...json(user) });
  t.equal(registered.status, 201);
  const token = tokenFrom(registered);
  const reset = await http(`${pods[1]!.base}/api/auth/password-reset`, {
    method: 'POST',
    ...json({ email: user.email }),
  });
  t.equal(reset.status, 202, 'a password reset asked on the other replica');
  await until(
    async () => smtp!.recipients.includes(user.email) || undefined,
    'the password-reset email through SMTP_URL',
  );
  t.pass('its email went out through the SMTP server the Secret names');
  const me = await http(`${pods[1]!.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(me.status, 200);
  t.equal(JSON.parse(me.body).user.email, user.email);
  const logout = await http(`${pods[1]!.base}/api/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  t.equal(logout.status, 204);
  const after = await http(`${pods[0]!.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(after.status, 401, 'and a logout on one ends it on the other');
});

t.test('the login rate limit is shared through Redis', async (t) => {
  const perMinute = Number(configMap.data.LOGIN_RATE_LIMIT_PER_MINUTE);
  const attempt = (index: number) =>
    http(`${pods[index % 2]!.base}/api/auth/login`, {
      method: 'POST',
      ...json({ email: `nobody-${index}@deploy.example`, password: 'not the password' }),
    });
  for (let index = 0; index < perMinute; index++) {
    t.equal((await attempt(index)).status, 401, `attempt ${index + 1} of ${perMinute}, on replica ${index % 2}`);
  }
  const over = [await attempt(perMinute), await attempt(perMinute + 1)];
  t.same(
    over.map((response) => response.status),
    [429, 429],
    'both replicas refuse the next attempts: they count together',
  );
  t.ok(
    over.every((response) => Number(response.headers['retry-after']) > 0),
    'with Retry-After',
  );
});
