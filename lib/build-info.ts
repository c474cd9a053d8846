import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface BuildInfo {
  id: string;
  timestamp: number;
}

/** The folder holding package.json above this module, from the sources or from the server bundle. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);

/** The id of the build this process serves, written by `npm run build` next to the bundles. */
export function readBuildInfo(dev: boolean): BuildInfo {
  if (dev) return { id: 'dev', timestamp: Date.now() };
  const file = resolve(projectRoot, 'dist', 'build.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BuildInfo;
  } catch (error) {
    throw new Error(`No production build at ${file}: run \`npm run build\` first.`, { cause: error });
  }
}
