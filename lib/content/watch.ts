import { type FSWatcher, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface ContentWatcher {
  /** Resolves once changes from now on will be seen (polling has taken its first fingerprint). */
  ready: Promise<void>;
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs (editors write in several steps). */
  debounceMs?: number;
  /** Polling interval when the platform has no recursive fs.watch. */
  pollMs?: number;
  /** Force polling (tests). */
  poll?: boolean;
  onError?: (error: Error) => void;
}

/** What a poll compares: every file's path, size and modification time. */
async function fingerprint(root: string): Promise<string> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    const parts = await Promise.all(
      entries
        .filter((entry) => entry.isFile())
        .map(async (entry) => {
          const file = path.join(entry.parentPath, entry.name);
          try {
            const info = await stat(file);
            return `${file}:${info.size}:${info.mtimeMs}`;
          } catch {
            return `${file}:gone`;
          }
        }),
    );
    return parts.sort().join('\n');
  } catch (error) {
    return `error:${(error as Error).message}`;
  }
}

/** Calls `onChange` (debounced) when anything under `root` changes: recursive fs.watch, else polling. */
export function watchContent(root: string, onChange: () => void, options: WatchOptions = {}): ContentWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const pollMs = options.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let watcher: FSWatcher | undefined;
  let poller: NodeJS.Timeout | undefined;

  const changed = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
    timer.unref();
  };

  const startPolling = async (): Promise<void> => {
    let last = await fingerprint(root);
    const tick = async () => {
      if (closed) return;
      const now = await fingerprint(root);
      if (now !== last) {
        last = now;
        changed();
      }
      if (!closed) poller = setTimeout(() => void tick(), pollMs).unref();
    };
    if (!closed) poller = setTimeout(() => void tick(), pollMs).unref();
  };

  let ready = Promise.resolve();
  if (!options.poll) {
    try {
      watcher = watch(root, { recursive: true }, changed);
      watcher.on('error', (error) => {
        options.onError?.(error);
        watcher?.close();
        watcher = undefined;
        void startPolling();
      });
      watcher.unref();
    } catch (error) {
      options.onError?.(error as Error);
      watcher = undefined;
    }
  }
  if (!watcher) ready = startPolling();

  return {
    ready,
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(poller);
      watcher?.close();
    },
  };
}
