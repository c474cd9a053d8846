/**
 * Read by V8 and glibc only at process start, so the Dockerfile's `ENV`, `npm start` and the
 * bench's local server share this list (decisions 0020, 0023).
 */
export const runtimeEnv = {
  // The old-space limit sets V8's growth factor (1.1x of the live heap at 256 MiB), not a tight cap.
  NODE_OPTIONS: '--max-semi-space-size=2 --max-old-space-size=256',
  MALLOC_ARENA_MAX: '2',
  // Fixed, so glibc does not raise it to the largest block freed (argon2's, Buffer slabs).
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

/**
 * V8 flags Node refuses in NODE_OPTIONS, so they go on the command line: the image's CMD,
 * `npm start`'s restart and the bench's local server share this list.
 */
export const runtimeFlags = [
  // Decision 0024: less memory on Node 24, no measurable CPU.
  '--no-maglev',
] as const;

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
