/**
 * The process settings a replica starts with: the image's `ENV` (Dockerfile), `npm start`
 * (scripts/start.mjs) and the bench's local server use this one list, and
 * test/deploy/manifests.test.ts holds the Dockerfile to it. V8 and glibc read them only when the
 * process starts, so no code inside the process can apply them later. What each costs:
 * docs/decisions/0020-memory-settings-at-process-start.md and 0023.
 */
export const runtimeEnv = {
  // --max-semi-space-size: V8's young generation is two semi-spaces of up to 16 MiB each by
  // default, and start-up alone grows them to the full 32 MiB, held for the process's life; 2 MiB
  // each costs more frequent (cheap) scavenges. --max-old-space-size: V8 lets the old generation
  // grow to a factor of its live size before a full collection, 4x with a limit of 2 GiB or more,
  // falling to 1.1x at 256 MiB and below (its heap controller); 256 MiB is still several times the
  // live heap, so it is a growth policy, not a tight cap (overload shedding starts at 90 % of it).
  NODE_OPTIONS: '--max-semi-space-size=2 --max-old-space-size=256',
  // glibc gives each thread that allocates its own arena (up to 8 per core) and keeps freed memory
  // in it: argon2's blocks, allocated on libuv's pool threads, stayed resident per thread.
  MALLOC_ARENA_MAX: '2',
  // glibc serves blocks of 64 KiB and more with their own mapping, returned when freed, and trims
  // free memory above 128 KiB at the top of its heap. Its default raises both thresholds to the
  // largest block freed so far (argon2's, Node's 64 KiB Buffer slabs), after which such blocks
  // stay in the heap, free and resident (decision 0023).
  MALLOC_MMAP_THRESHOLD_: '65536',
} as const satisfies Record<string, string>;

export type RuntimeEnvName = keyof typeof runtimeEnv;

/** The settings `env` does not set itself (an operator's own value wins, as a whole). */
export function missingRuntimeEnv(env: NodeJS.ProcessEnv): RuntimeEnvName[] {
  return (Object.keys(runtimeEnv) as RuntimeEnvName[]).filter((name) => env[name] === undefined);
}

/** `env` plus the settings it does not set itself. */
export function withRuntimeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(missingRuntimeEnv(env).map((name) => [name, runtimeEnv[name]])) };
}

/**
 * V8 flags a replica starts with that Node refuses in NODE_OPTIONS, so they go on its command
 * line: the image's CMD, `npm start`'s restart and the bench's local server pass this one list
 * (test/deploy/manifests.test.ts holds the Dockerfile to it).
 */
export const runtimeFlags = [
  // Maglev, the mid-tier optimising compiler V8 turns on from Node 22, keeps a second kind of
  // optimised code and its compilation data: about 7 MiB more resident per replica on Node 24,
  // for no CPU we could measure on pages (decision 0024). Without it V8 optimises hot code with
  // TurboFan alone, as on Node 20.
  '--no-maglev',
] as const;

/** A flag's name without its `--no-` or `--`, so `--maglev` and `--no-maglev` name the same setting. */
const flagName = (flag: string) => flag.replace(/=.*$/, '').replaceAll('_', '-').replace(/^--(?:no-)?/, '');

/** The flags the command line (`process.execArgv`) does not set, either way, itself. */
export function missingRuntimeFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('--')).map(flagName));
  return runtimeFlags.filter((flag) => !given.has(flagName(flag)));
}
