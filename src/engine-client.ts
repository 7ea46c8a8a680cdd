// The UI's handle on the engine worker: a Comlink proxy typed by the worker's exposed API.
import * as Comlink from 'comlink';
import type { LabApi as WorkerApi } from '../worker/lab.ts';

let engine: Comlink.Remote<WorkerApi> | undefined;

export function getEngine(): Comlink.Remote<WorkerApi> {
  if (!engine) {
    // Written literally so Vite bundles the worker (see docs/ARCHITECTURE.md).
    const worker = new Worker(new URL('../worker/worker-entry.ts', import.meta.url), { type: 'module' });
    engine = Comlink.wrap<WorkerApi>(worker);
  }
  return engine;
}

export { Comlink };
