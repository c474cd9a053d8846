import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../build-info.ts';
import type { ContentSnapshot } from './snapshot.ts';

const fromSources = import.meta.url.endsWith('.ts');

function startThread(root: string): Worker {
  const workerData = { root };
  // The server bundle keeps this entry at its source path (scripts/bundle-server.mjs).
  if (!fromSources) return new Worker(join(projectRoot, 'dist/node/lib/content/load-worker.js'), { workerData });
  // From the sources the thread needs tsx: Node 20 does not hand module hooks on to workers.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./load-worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${entry}); })`, {
    eval: true,
    workerData,
  });
}

/**
 * `loadContent(root)` on a thread that ends after the load, taking the Markdown pipeline's memory
 * with it: an imported module stays for the life of its thread (decision 0022).
 */
export function loadContentInWorker(root: string): Promise<ContentSnapshot> {
  return new Promise((resolve, reject) => {
    const worker = startThread(root);
    let answered = false;
    worker.once('message', (snapshot: ContentSnapshot) => {
      answered = true;
      resolve(snapshot);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the content loader's thread ended (exit code ${code}) without an answer`));
    });
  });
}
