// The content loader's thread (load-in-worker.ts): posts the snapshot back, then ends.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './loader.ts';

const { root } = workerData as { root: string };
parentPort!.postMessage(await loadContent(root));
