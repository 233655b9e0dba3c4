// A seeding worker thread: plays and writes one range of games on a connection of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { loadRange, type GameRange } from './load.js';

const range = workerData as GameRange;
const result = await loadRange(range, (games) => parentPort!.postMessage({ type: 'progress', games }));
parentPort!.postMessage({ type: 'done', result });
