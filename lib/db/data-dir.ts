import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../config.ts';

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'an error';

function problem(dataDir: string, what: string): ConfigError {
  return new ConfigError(`DATA_DIR=${dataDir} ${what}`);
}

/** Why `path` cannot be written, in words, or undefined when it can. */
async function unwritable(path: string): Promise<string | undefined> {
  try {
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    if (code(error) === 'EROFS') return `is on a read-only filesystem (${path})`;
    return `cannot be written by this process (${code(error)} on ${path}): give its user write access, or choose another folder`;
  }
}

/**
 * The embedded database's folder, made if missing (one folder at a time: Node's recursive mkdir
 * loops on /proc), or a ConfigError naming DATA_DIR and what is wrong, never a stack trace.
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  const missing: string[] = [];
  let existing = dataDir;
  for (;;) {
    try {
      const info = await stat(existing);
      if (!info.isDirectory())
        throw problem(
          dataDir,
          `cannot be a folder: ${existing} is a file. Set DATA_DIR to a folder (made if missing).`,
        );
      break;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      // ENOTDIR: a file further up, which the next turn names.
      if (!['ENOENT', 'ENOTDIR'].includes(code(error)) || dirname(existing) === existing)
        throw problem(dataDir, `cannot be read (${code(error)} on ${existing}).`);
      missing.unshift(existing);
      existing = dirname(existing);
    }
  }
  const why = await unwritable(existing);
  if (why) throw problem(dataDir, `${missing.length ? 'cannot be made: its parent ' : ''}${why}.`);
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (error) {
      if (code(error) === 'EEXIST') continue;
      throw problem(
        dataDir,
        `cannot be made: the filesystem of ${dirname(folder)} holds no folder there (${code(error)}).`,
      );
    }
  }
  // A folder that exists but is not this process's to write (a volume mounted read-only, another owner).
  const folderUnwritable = await unwritable(dataDir);
  if (folderUnwritable) throw problem(dataDir, `${folderUnwritable}.`);
}
