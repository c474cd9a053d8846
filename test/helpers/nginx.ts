/**
 * A real nginx running the shipped configuration (deploy/nginx/*.conf) with only its ports and its
 * replicas' addresses replaced: for tests of what the proxy bounds and how it passes requests on.
 * `nginxMissing()` says why it cannot run here (the test then skips with that reason).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  chmodSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { freePort } from './private-servers.ts';

const shipped = resolve(import.meta.dirname, '../../deploy/nginx');
// Debian's dynamic modules: nginx.conf includes /etc/nginx/modules-enabled/*.conf, whose
// `load_module modules/...` lines resolve in nginx's prefix.
const debianModules = '/usr/lib/nginx/modules';
const debianEnabled = '/etc/nginx/modules-enabled';

export const nginxBinary = [
  ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nginx')),
  '/usr/sbin/nginx',
].find((path) => existsSync(path));

/** Why the shipped configuration cannot run on this machine, or undefined. */
export function nginxMissing(): string | undefined {
  if (!nginxBinary) return 'nginx is not installed: apt-get install nginx libnginx-mod-stream';
  const built = spawnSync(nginxBinary, ['-V'], { encoding: 'utf8' }).stderr;
  const enabled = existsSync(debianEnabled) ? readdirSync(debianEnabled) : [];
  if (built.includes('--with-stream=dynamic') && !enabled.some((name) => name.includes('stream')))
    return "nginx's stream module is not installed: apt-get install libnginx-mod-stream";
  return undefined;
}

export interface ShippedNginx {
  /** Where visitors reach it: http://127.0.0.1:<port>. */
  base: string;
  port: number;
  /** nginx's prefix: the shipped files as run, and the caches' folders. */
  prefix: string;
  /** What nginx wrote so far: its access log (stdout) and its error log (stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts nginx on the shipped files: the public `listen 8080;` becomes a free port, the internal
 * 127.0.0.1:8081 (stream front to http server, when there is one) another, and app-1 and app-2
 * become `replicas` (app-2's line goes when there is one replica).
 */
export async function startShippedNginx(replicas: string[]): Promise<ShippedNginx> {
  const [port, internal] = [await freePort(), await freePort()];
  const prefix = mkdtempSync(join(tmpdir(), 'asdas-nginx-'));
  // nginx's workers (not root) open the cache folders nginx makes here (site.conf's proxy_cache_path).
  chmodSync(prefix, 0o755);
  const replacements: Array<[from: string | RegExp, to: string, required: boolean]> = [
    ['listen 8080;', `listen 127.0.0.1:${port};`, true],
    ['127.0.0.1:8081', `127.0.0.1:${internal}`, false],
    ['server app-1:3000', `server ${replicas[0]}`, true],
    replicas[1] ? ['server app-2:3000', `server ${replicas[1]}`, true] : [/^\s*server app-2:3000[^\n]*\n/m, '', true],
  ];
  const found = new Set<number>();
  for (const name of readdirSync(shipped).filter((file) => file.endsWith('.conf'))) {
    let text = readFileSync(join(shipped, name), 'utf8');
    replacements.forEach(([from, to], index) => {
      const replaced = typeof from === 'string' ? text.replaceAll(from, to) : text.replace(from, to);
      if (replaced !== text) found.add(index);
      text = replaced;
    });
    writeFileSync(join(prefix, name), text);
  }
  const lost = replacements.filter(([, , required], index) => required && !found.has(index));
  if (lost.length > 0) throw new Error(`deploy/nginx no longer holds ${lost.map(([from]) => String(from)).join(', ')}`);
  if (existsSync(debianModules)) symlinkSync(debianModules, join(prefix, 'modules'));

  // The access log goes to /dev/stdout, which nginx opens again: a file, not a socket as a pipe is.
  const accessLog = join(prefix, 'stdout.log');
  const stdout = openSync(accessLog, 'a');
  const nginx: ChildProcess = spawn(
    nginxBinary!,
    ['-p', `${prefix}/`, '-c', join(prefix, 'nginx.conf'), '-g', `daemon off; pid ${join(prefix, 'nginx.pid')};`],
    { stdio: ['ignore', stdout, 'pipe'] },
  );
  closeSync(stdout);
  let errors = '';
  nginx.stderr!.on('data', (chunk) => (errors += chunk));
  const output = () => `${existsSync(accessLog) ? readFileSync(accessLog, 'utf8') : ''}${errors}`;
  const exited = new Promise<void>((done) => nginx.once('exit', () => done()));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGTERM');
    await exited;
    rmSync(prefix, { recursive: true, force: true });
  };

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  let started = false;
  while (!started) {
    if (nginx.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start:\n${output()}`);
    }
    started = await answers(`${base}/healthz`);
    if (!started) await new Promise((done) => setTimeout(done, 100));
  }
  return { base, port, prefix, output, stop };
}

/** Whether a GET is answered 200 (from an address no test bounds). */
function answers(url: string): Promise<boolean> {
  return new Promise((done) => {
    const ask = request(url, { agent: false, localAddress: '127.0.0.99' }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    ask.on('error', () => done(false));
    ask.end();
  });
}
