import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface BuildInfo {
  id: string;
  timestamp: number;
}

export const projectRoot = resolve(import.meta.dirname, '..').replace(/[\\/]dist[\\/]node$/, '');

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
