/**
 * Shared by the deployment tests (`npm run test:deploy`): commands, podman, HTTP and waiting.
 * run.ts prepares the images and passes them to the stage files in the environment.
 */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** What run.ts hands the stage files. */
export interface DeployEnv {
  /** The app image built from the Dockerfile. */
  image: string;
  /** PostgreSQL and Redis from Debian's packages (test/deploy/services). */
  servicesImage: string;
  /** A podman network of this run: every container and pod joins it. */
  network: string;
  /** Prefix of every name this run gives a container, pod, volume or secret. */
  prefix: string;
  /** Where this run keeps files (nginx prefix, kube files). */
  workDir: string;
  /** JSON lines of figures for the summary. */
  figuresFile: string;
}

export function deployEnv(): DeployEnv {
  const value = (name: string) => {
    const found = process.env[name];
    if (!found) throw new Error(`${name} is not set: run the deployment tests with npm run test:deploy`);
    return found;
  };
  return {
    image: value('ASDAS_DEPLOY_IMAGE'),
    servicesImage: value('ASDAS_DEPLOY_SERVICES_IMAGE'),
    network: value('ASDAS_DEPLOY_NETWORK'),
    prefix: value('ASDAS_DEPLOY_PREFIX'),
    workDir: value('ASDAS_DEPLOY_WORKDIR'),
    figuresFile: value('ASDAS_DEPLOY_FIGURES'),
  };
}

/** Records a figure for the run's summary (and the closing note). */
export function figure(name: string, value: number | string, unit = ''): void {
  const file = process.env.ASDAS_DEPLOY_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify({ name, value, unit })}\n`);
}

export function readFigures(file: string): { name: string; value: number | string; unit: string }[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; value: number | string; unit: string });
  } catch {
    return [];
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; throws with its output unless it exits 0 (or `allowFailure`). */
export function run(
  command: string,
  args: string[],
  options: { input?: string; allowFailure?: boolean; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = execFile(
      command,
      args,
      {
        cwd: options.cwd ?? repoRoot,
        env: options.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 600_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        if (code !== 0 && !options.allowFailure) {
          fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr || stdout}`));
          return;
        }
        done({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs a command with its output shown (long steps: builds, debootstrap). */
export function runVisible(
  command: string,
  args: string[],
  options: { cwd?: string; logFile?: string } = {},
): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + String(chunk)).slice(-8000);
      if (options.logFile) appendFileSync(options.logFile, chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${tail}`)),
    );
  });
}

export const podman = (args: string[], options: { input?: string; allowFailure?: boolean } = {}) =>
  run('podman', args, options);

/** The container's (or pod's infra container's) address on the run's network. */
export async function addressOf(container: string, network: string): Promise<string> {
  const { stdout } = await podman([
    'inspect',
    container,
    '--format',
    `{{(index .NetworkSettings.Networks "${network}").IPAddress}}`,
  ]);
  const address = stdout.trim();
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) throw new Error(`${container} has no address on ${network}: '${address}'`);
  return address;
}

export async function exitCodeOf(container: string): Promise<number> {
  const { stdout } = await podman(['inspect', container, '--format', '{{.State.ExitCode}}']);
  return Number(stdout.trim());
}

/** Removes what a stage made, ignoring what is already gone. */
export async function removeAll(kind: 'container' | 'pod' | 'volume' | 'secret', names: string[]): Promise<void> {
  const args: Record<typeof kind, string[]> = {
    container: ['rm', '--force', '--ignore', '--time', '0'],
    pod: ['pod', 'rm', '--force', '--ignore'],
    volume: ['volume', 'rm', '--force'],
    secret: ['secret', 'rm'],
  };
  for (const name of names) await podman([...args[kind], name], { allowFailure: true });
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request on a fresh connection (no keep-alive surprises in checks). */
export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<HttpResponse> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: { connection: 'close', ...options.headers },
        timeout: options.timeoutMs ?? 15_000,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body }));
        response.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out: ${url}`)));
    req.on('error', fail);
    req.end(options.body);
  });
}

export const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Asks again until `check` holds (the event itself, not a length of time); `limitMs` only stops a hang. */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  limitMs = 180_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (error instanceof StoppedError) throw error;
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Waits for /readyz to answer 200; when `container` stops meanwhile, fails at once with its last log lines. */
export async function readyAt(base: string, container?: string): Promise<void> {
  await until(async () => {
    if (container) {
      const running = (await podman(['inspect', container, '--format', '{{.State.Running}}'])).stdout.trim();
      if (running !== 'true') {
        const logs = await podman(['logs', '--tail', '15', container], { allowFailure: true });
        throw new StoppedError(`${container} stopped before it was ready:\n${logs.stdout}${logs.stderr}`);
      }
    }
    return (await http(`${base}/readyz`, { timeoutMs: 3000 })).status === 200;
  }, `${base}/readyz`);
}

/** Ends `until` at once: waiting longer cannot help. */
export class StoppedError extends Error {}

/** A port nobody listens on now, for nginx. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export function account(tag: string) {
  return {
    email: `${tag}@deploy.example`,
    password: 'a long passphrase 42',
    displayName: tag,
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  };
}

/** Runs SQL in the services container's PostgreSQL (database asdas) and returns the rows as text. */
export async function psql(container: string, query: string): Promise<string[]> {
  const { stdout } = await podman([
    'exec',
    container,
    '/usr/local/pgbin/psql',
    '-h',
    '/tmp',
    '-U',
    'postgres',
    '-d',
    'asdas',
    '-tAq',
    '-c',
    query,
  ]);
  return stdout.split('\n').filter(Boolean);
}

/** The session token a login or registration set as its `token` cookie. */
export function tokenFrom(response: HttpResponse): string {
  const cookies = response.headers['set-cookie'] ?? [];
  const token = cookies.map((cookie) => /^token=([^;]+)/.exec(cookie)?.[1]).find(Boolean);
  if (!token) throw new Error(`no token cookie in the answer (${response.status}): ${response.body.slice(0, 200)}`);
  return token;
}

export interface SmtpSink {
  /** smtp://address:port, for SMTP_URL. */
  url: string;
  /** Recipients of every message received, in order. */
  recipients: string[];
  close(): Promise<void>;
}

/** An SMTP server on `host` that keeps what it receives (the replicas' SMTP_URL points at it). */
export async function startSmtpSink(host: string): Promise<SmtpSink> {
  const { SMTPServer } = await import('smtp-server');
  const recipients: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        recipients.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => done());
  });
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://${host}:${port}`,
    recipients,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** The host's address on the run's network: where containers reach the host (nginx, the SMTP sink). */
export async function gatewayOf(network: string): Promise<string> {
  const { stdout } = await podman(['network', 'inspect', network, '--format', '{{range .Subnets}}{{.Gateway}}{{end}}']);
  const address = stdout.trim();
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) throw new Error(`no gateway address for ${network}: '${address}'`);
  return address;
}
