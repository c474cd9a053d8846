// The deployment files agree with each other and with the app (fast, no containers: part of
// `npm test`). `npm run test:deploy` runs them for real.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { bodyLimitBytes } from '../../app.ts';
import { loadConfig } from '../../lib/config.ts';
import {
  missingRuntimeEnv,
  missingRuntimeFlags,
  runtimeEnv,
  runtimeFlags,
  withRuntimeEnv,
} from '../../lib/runtime-env.ts';

const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
type Doc = Record<string, any>;
const docs = (path: string): Doc[] => parseAllDocuments(read(path)).map((doc) => doc.toJS() as Doc);

const kustomization = parse(read('deploy/kubernetes/kustomization.yaml')) as {
  resources: string[];
  images: { name: string }[];
};
const resources = kustomization.resources.flatMap((file) => docs(`deploy/kubernetes/${file}`));
const byKind = (kind: string) => {
  const found = resources.filter((doc) => doc.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0]!;
};
const configMap = byKind('ConfigMap');
const deployment = byKind('Deployment');
const service = byKind('Service');
const ingress = byKind('Ingress');
const budget = byKind('PodDisruptionBudget');
const autoscaler = byKind('HorizontalPodAutoscaler');
const secret = docs('deploy/kubernetes/secret.example.yaml')[0]!;
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const settings = configMap.data as Record<string, string>;
const dockerfile = read('Dockerfile');
const bodyLimit = bodyLimitBytes;
const stopBudgetMs = Number(settings.SHUTDOWN_DRAIN_MS) + Number(settings.SHUTDOWN_TIMEOUT_MS);

t.test('kustomization: every resource exists; the Secret example is not applied with them', async (t) => {
  for (const file of kustomization.resources) t.ok(existsSync(join(root, 'deploy/kubernetes', file)), file);
  t.notOk(kustomization.resources.includes('secret.example.yaml'), 'real secrets are applied by the operator');
  t.equal(kustomization.images[0]!.name, container.image, 'images: rewrites the Deployment image');
});

t.test('Deployment: two replicas, rolling with none unavailable, probes, drain inside the grace period', async (t) => {
  t.equal(deployment.spec.replicas, 2);
  t.equal(deployment.spec.strategy.type, 'RollingUpdate');
  t.equal(deployment.spec.strategy.rollingUpdate.maxUnavailable, 0);
  t.equal(container.startupProbe.httpGet.path, '/readyz');
  t.equal(container.readinessProbe.httpGet.path, '/readyz');
  t.equal(container.livenessProbe.httpGet.path, '/healthz');
  t.ok(
    pod.terminationGracePeriodSeconds * 1000 > stopBudgetMs,
    `grace ${pod.terminationGracePeriodSeconds} s > drain + shutdown timeout ${stopBudgetMs} ms`,
  );
  // The readiness probe must see the drain before it ends, so the endpoints drop the pod first.
  const noticedWithinMs = container.readinessProbe.periodSeconds * container.readinessProbe.failureThreshold * 1000;
  t.ok(
    noticedWithinMs < Number(settings.SHUTDOWN_DRAIN_MS),
    `readiness notices the drain within ${noticedWithinMs} ms`,
  );
  t.ok(container.resources.requests.cpu && container.resources.requests.memory, 'requests');
  t.ok(container.resources.limits.cpu && container.resources.limits.memory, 'limits');
  t.equal(container.ports[0].containerPort, Number(settings.PORT));
  const metrics = container.ports.find((port: Doc) => port.name === 'metrics');
  t.equal(metrics?.containerPort, Number(settings.METRICS_PORT), 'the metrics port is declared');
  t.equal(settings.METRICS_HOST, '0.0.0.0', 'and listened on beyond loopback (its default), for the scraper');
  const annotations = deployment.spec.template.metadata.annotations as Record<string, string>;
  t.equal(annotations['prometheus.io/scrape'], 'true');
  t.equal(annotations['prometheus.io/port'], settings.METRICS_PORT, 'and annotated for scraping');
  t.equal(annotations['prometheus.io/path'], '/metrics');
  t.same(
    container.envFrom.map((from: Doc) => from.configMapRef?.name ?? from.secretRef?.name),
    [configMap.metadata.name, secret.metadata.name],
  );
});

t.test('Deployment security: non-root as the image user, read-only root filesystem, no privileges', async (t) => {
  const imageUser = /^USER (\d+):(\d+)$/m.exec(dockerfile);
  t.ok(imageUser, 'the Dockerfile names a numeric user');
  t.equal(pod.securityContext.runAsNonRoot, true);
  t.equal(pod.securityContext.runAsUser, Number(imageUser![1]));
  t.equal(container.securityContext.readOnlyRootFilesystem, true);
  t.equal(container.securityContext.allowPrivilegeEscalation, false);
  t.same(container.securityContext.capabilities.drop, ['ALL']);
  t.ok(
    container.volumeMounts.some((mount: Doc) => mount.mountPath === '/tmp'),
    'a writable /tmp',
  );
});

t.test('Service, Ingress, PodDisruptionBudget and autoscaler find the pods', async (t) => {
  const labels = deployment.spec.template.metadata.labels as Record<string, string>;
  const selects = (selector: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);
  t.ok(selects(service.spec.selector), 'Service');
  t.equal(service.spec.ports[0].targetPort, container.ports[0].name);
  const backend = ingress.spec.rules[0].http.paths[0].backend.service;
  t.equal(backend.name, service.metadata.name);
  t.equal(backend.port.name, service.spec.ports[0].name);
  t.notOk(
    service.spec.ports.some(
      (port: Doc) => port.targetPort === 'metrics' || port.port === Number(settings.METRICS_PORT),
    ),
    'metrics never travel through the Service and the Ingress',
  );
  t.equal(
    ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size'],
    `${bodyLimit / 1024}k`,
    "ingress body size = the app's body limit",
  );
  t.ok(selects(budget.spec.selector.matchLabels), 'PodDisruptionBudget');
  t.ok(budget.spec.minAvailable >= 1);
  t.equal(autoscaler.spec.scaleTargetRef.name, deployment.metadata.name);
  t.ok(autoscaler.spec.minReplicas >= 2, 'never fewer than two replicas');
});

t.test('the ConfigMap and the Secret example make a valid production configuration without warnings', async (t) => {
  const config = loadConfig({ ...settings, ...secret.stringData });
  t.equal(config.env, 'production');
  t.ok(config.databaseUrl && config.redisUrl, 'PostgreSQL and Redis: no embedded database across replicas');
  t.same(config.warnings, []);
  t.ok(Array.isArray(config.trustProxy), 'TRUST_PROXY lists addresses, never a hop count');
});

t.test('compose: the same settings, nginx in front, stops inside the grace period', async (t) => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as Doc;
  const apps = ['app-1', 'app-2'].map((name) => compose.services[name] as Doc);
  // ${NAME:-default} takes its default; ${NAME:?message} a stand-in value.
  const filled = (value: string) =>
    value.replace(
      /\$\{(\w+)(?::-([^}]*))?[^}]*\}/g,
      (_, name: string, fallback: string | undefined) =>
        fallback ??
        { PLAY_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://mail.example:587' }[name] ??
        `fill-${name.toLowerCase()}`,
    );
  for (const app of apps) {
    const environment = Object.fromEntries(
      Object.entries(app.environment as Record<string, string>).map(([key, value]) => [key, filled(String(value))]),
    );
    for (const key of Object.keys(settings).filter((key) => !['PUBLIC_URL', 'TRUST_PROXY'].includes(key))) {
      t.equal(environment[key], settings[key], `${key} as in the ConfigMap`);
    }
    const config = loadConfig(environment);
    t.same(config.warnings, [], 'no start-up warnings');
    t.ok(config.databaseUrl && config.redisUrl);
    t.ok(
      Number.parseInt(app.stop_grace_period, 10) * 1000 > stopBudgetMs,
      'stop_grace_period > drain + shutdown timeout',
    );
    t.equal(app.read_only, true);
  }
  const subnet = compose.networks.asdas.ipam.config[0].subnet;
  t.equal(
    apps[0]!.environment.TRUST_PROXY,
    subnet,
    "TRUST_PROXY is the compose network, where nginx's address comes from",
  );
  const upstream = read('deploy/nginx/upstream.conf');
  for (const name of ['app-1', 'app-2'])
    t.match(upstream, new RegExp(`server ${name}:${settings.PORT}\\b`), `nginx sends to ${name}`);
  t.match(compose.services.nginx.volumes[0], /^\.\/nginx:/);
});

t.test('nginx: what the replicas need from the proxy', async (t) => {
  const site = read('deploy/nginx/site.conf');
  const directive = (name: string) =>
    [...site.matchAll(new RegExp(`^\\s*${name}\\s+([^;]+);`, 'gm'))].map((match) => match[1]!.trim());
  t.same(directive('client_max_body_size'), [`${bodyLimit / 1024}k`], "body size = the app's body limit");
  const headers = Object.fromEntries(
    directive('proxy_set_header').map((value) => value.split(/\s+/, 2) as [string, string]),
  );
  t.equal(headers.Host, '$asdas_forwarded_host');
  t.match(
    site,
    /map \$http_host \$asdas_forwarded_host \{[^}]*default \$http_host;/,
    'Host with the port the browser used',
  );
  t.equal(headers['X-Forwarded-For'], '$proxy_add_x_forwarded_for');
  t.equal(headers['X-Forwarded-Proto'], '$scheme');
  t.equal(headers['X-Request-Id'], '$asdas_request_id');
  t.equal(headers.traceparent, '$http_traceparent', 'the trace the app continues');
  t.equal(headers.tracestate, '$http_tracestate');
  t.equal(headers.Connection, '""', 'upstream keep-alive');
  t.equal(directive('proxy_http_version')[0], '1.1');
  t.match(read('deploy/nginx/upstream.conf'), /^\s*keepalive \d+;/m);
  // Without a shared zone each worker keeps its own view of which replica is down (see upstream.conf).
  t.match(read('deploy/nginx/upstream.conf'), /^\s*zone asdas_site \d+k;/m, 'replica health shared by the workers');
  const retry = directive('proxy_next_upstream')[0]!;
  t.match(retry, /\berror\b/);
  t.notMatch(retry, /non_idempotent/, 'never a POST twice');
  t.match(site, /location \/assets\/ \{[^}]*max-age=31536000, immutable/);
  // The public port is the stream front's, which hands the client's address on (stream.conf).
  t.match(read('deploy/nginx/nginx.conf'), /^include stream\.conf;/m, 'connections per address bounded');
  t.match(read('deploy/nginx/stream.conf'), /listen 8080;[\s\S]*proxy_protocol on;/);
  t.match(read('deploy/nginx/listen.conf'), /^listen 127\.0\.0\.1:8081 proxy_protocol;/m);
  t.match(read('deploy/nginx/listen.conf'), /^real_ip_header proxy_protocol;/m);
});

t.test('Dockerfile: the official Node 24 image by default, no rebuild at start', async (t) => {
  t.match(dockerfile, /^ARG BASE_IMAGE=node:24-bookworm-slim$/m);
  t.match(dockerfile, /^VOLUME \/data$/m);
  t.match(dockerfile, /^EXPOSE 3000 9464$/m);
  t.match(dockerfile, /^HEALTHCHECK [\s\S]*\/readyz/m);
  t.match(dockerfile, /npm prune --omit=dev/);
  const ignored = read('.dockerignore').split('\n');
  for (const path of ['node_modules', 'dist', '.git', 'data']) t.ok(ignored.includes(path), `.dockerignore: ${path}`);
});

t.test('Dockerfile: the memory settings `npm start` and the bench use (lib/runtime-env.ts)', async (t) => {
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  for (const [name, value] of Object.entries(runtimeEnv)) {
    const set = new RegExp(`^(?:ENV|\\s+)\\s*${name}=("[^"]*"|\\S+)`, 'm').exec(finalStage);
    t.equal(set?.[1]?.replace(/^"|"$/g, ''), value, `ENV ${name} in the final stage`);
  }
  const command = /^CMD (\[.*\])$/m.exec(finalStage)?.[1];
  t.same(
    JSON.parse(command ?? 'null'),
    ['node', ...runtimeFlags, 'dist/node/server.js'],
    'the V8 flags on the command line',
  );
});

t.test("runtime settings: added when missing, an operator's own value kept whole", async (t) => {
  t.same(missingRuntimeEnv({}), Object.keys(runtimeEnv));
  const operator = withRuntimeEnv({ NODE_OPTIONS: '--enable-source-maps', PORT: '3000' });
  t.equal(operator.NODE_OPTIONS, '--enable-source-maps', 'NODE_OPTIONS of their own replaces ours');
  t.equal(operator.MALLOC_ARENA_MAX, runtimeEnv.MALLOC_ARENA_MAX, 'the others still apply');
  t.equal(operator.PORT, '3000');
  t.same(missingRuntimeEnv(operator), []);
  t.equal(withRuntimeEnv({ NODE_OPTIONS: '' }).NODE_OPTIONS, '', "an empty value (Node's defaults) is kept too");
  t.same(missingRuntimeFlags([]), runtimeFlags);
  t.same(missingRuntimeFlags(['--enable-source-maps', ...runtimeFlags]), [], 'given on the command line');
  t.same(missingRuntimeFlags(['--maglev']), [], "an operator's opposite choice is kept");
  t.same(missingRuntimeFlags(['--no_maglev']), [], 'V8 reads _ as -');
});
