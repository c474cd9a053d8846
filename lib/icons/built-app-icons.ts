import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appIcons } from '../../contract/app-icons.ts';
import { projectRoot } from '../build-info.ts';
import { loadIcons, type RenderedIcon } from './local-sets.ts';

// The pages' own icons, rendered by `npm run build`: a start reads a few kilobytes instead of
// parsing the installed sets (3.6 MB of JSON) for them (decision 0042).
const builtFile = join(projectRoot, 'dist/node/app-icons.json');

export async function writeBuiltAppIcons(): Promise<void> {
  writeFileSync(builtFile, JSON.stringify(await loadIcons(appIcons)));
}

/** Undefined before a build, and in development, where the sets are read as they are. */
export function builtAppIcons(): Record<string, RenderedIcon> | undefined {
  return existsSync(builtFile)
    ? (JSON.parse(readFileSync(builtFile, 'utf8')) as Record<string, RenderedIcon>)
    : undefined;
}
