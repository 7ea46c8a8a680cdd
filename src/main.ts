// Entry of the UI (main thread). The UI never parses code or reads git objects: the engine worker does.
import './components/app/app.ts';
import { getEngine } from './engine-client.ts';

// A console handle for people scripting the engine (and for the e2e tests): `await repairlab.engine.listBugs()`.
(globalThis as { repairlab?: unknown }).repairlab = { engine: getEngine() };
