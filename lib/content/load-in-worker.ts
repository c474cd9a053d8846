import { Worker } from 'node:worker_threads';
import type { ContentSnapshot } from './snapshot.ts';

const fromSources = import.meta.url.endsWith('.ts');

function startThread(root: string): Worker {
  const workerData = { root };
  if (!fromSources) return new Worker(new URL('./load-worker.js', import.meta.url), { workerData });
  // Run from the TypeScript sources (`npm run dev`, the tests), the thread needs tsx as well, and
  // Node 20 does not hand the main thread's module hooks on to worker threads.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./load-worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${entry}); })`, { eval: true, workerData });
}

/**
 * `loadContent(root)` on a thread of its own. The Markdown pipeline (unified, remark, rehype,
 * micromark, yaml: about 5 MiB of heap once imported, more while it works) runs only at start and
 * on a content change; a module once imported stays in its thread for good, so on the server's
 * thread it would hold that memory for the life of the process. The thread ends after each load.
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
