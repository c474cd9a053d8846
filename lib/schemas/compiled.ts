import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../build-info.ts';

// Validators and serializers compiled to code by `npm run build` (decision 0042).
export const compiledSchemasFile = 'dist/node/compiled-schemas.cjs';

/** Each compiled function under its key, built on first lookup. */
type CompiledTable = Record<string, () => unknown>;

let table: CompiledTable = {};
const built = new Map<string, unknown>();
let recorded: Map<string, string> | undefined;
const missed = new Set<string>();

/** The same schema compiles differently under another compiler or other options. */
export function schemaKey(compiler: string, options: unknown, schema: unknown): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([options, schema]))
    .digest('base64url');
  return `${compiler}:${hash}`;
}

/** Returns how many functions the build's table holds (none in development). */
export function loadCompiledSchemas(file = join(projectRoot, compiledSchemasFile)): number {
  if (!existsSync(file)) return 0;
  table = createRequire(import.meta.url)(file) as CompiledTable;
  missed.clear();
  built.clear();
  return Object.keys(table).length;
}

/** The compiled function for `key`, or undefined (then the caller compiles, and it is noted). */
export function compiledFor<T>(key: string): T | undefined {
  const build = table[key];
  if (build) {
    if (!built.has(key)) built.set(key, build());
    return built.get(key) as T;
  }
  missed.add(key);
  return undefined;
}

/** Loaded on first call: a serializer of a schema with `anyOf` restores a whole Ajv instance. */
export function lazyCompiledFor<T extends (...args: never[]) => unknown>(key: string): T | undefined {
  if (!table[key]) return compiledFor<T>(key);
  let compiled: T | undefined;
  return ((...args: Parameters<T>) => (compiled ??= compiledFor<T>(key)!)(...args)) as T;
}

export function missedSchemas(): string[] {
  return [...missed];
}

export function startRecording() {
  recorded = new Map();
}

export const recording = () => recorded !== undefined;

/** `code` is a CommonJS module's text whose `module.exports` is the function. */
export function record(key: string, code: string) {
  recorded?.set(key, code);
}

/** One CommonJS file: each module's text in a function run on first lookup. */
export function recordedModule(): string {
  const entries = [...(recorded ?? new Map<string, string>())].map(
    ([key, code]) =>
      `exports[${JSON.stringify(key)}] = () => {\n  const module = { exports: {} };\n  const exports = module.exports;\n${code}\n  return module.exports;\n};`,
  );
  return `'use strict';\n// Written by npm run build (scripts/compile-schemas.ts): do not edit.\n${entries.join('\n')}\n`;
}
