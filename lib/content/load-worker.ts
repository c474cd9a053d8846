// The content loader's thread (lib/content/load-in-worker.ts starts it): loads the folder and
// posts the snapshot back, then ends, and the Markdown pipeline's memory goes with it.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './loader.ts';

const { root } = workerData as { root: string };
parentPort!.postMessage(await loadContent(root));
