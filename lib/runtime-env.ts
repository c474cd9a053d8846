/** Read by V8 and glibc at process start only: the Dockerfile, `npm start` and the bench share it. */
export const runtimeEnv = {
  NODE_OPTIONS: '--max-semi-space-size=2 --max-old-space-size=256',
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
} as const satisfies Record<string, string>;

export type RuntimeEnvName = keyof typeof runtimeEnv;

/** An operator's own value wins, as a whole. */
export function missingRuntimeEnv(env: NodeJS.ProcessEnv): RuntimeEnvName[] {
  return (Object.keys(runtimeEnv) as RuntimeEnvName[]).filter((name) => env[name] === undefined);
}

export function withRuntimeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(missingRuntimeEnv(env).map((name) => [name, runtimeEnv[name]])) };
}

/** V8 flags Node refuses in NODE_OPTIONS, given on the command line instead (decision 0024). */
export const runtimeFlags = ['--no-maglev'] as const;

/** `--maglev` and `--no-maglev` name the same setting. */
const flagName = (flag: string) =>
  flag
    .replace(/=.*$/, '')
    .replaceAll('_', '-')
    .replace(/^--(?:no-)?/, '');

export function missingRuntimeFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('--')).map(flagName));
  return runtimeFlags.filter((flag) => !given.has(flagName(flag)));
}
