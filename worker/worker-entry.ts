// The engine worker: one module worker owns the git store (lightning-fs in IndexedDB), parsing and the agent
// runs, and exposes them to the UI with Comlink. Only this worker opens lightning-fs. The parts and the API are the
// lab's (worker/lab.ts); this file only picks the browser platform and tree-sitter's asset URLs.
import './shims/buffer.ts';
import * as Comlink from 'comlink';
import { createLab, type LabApi } from './lab.ts';
import { createBrowserPlatform } from './platform/browser.ts';
import { javaWasmUrls } from './java/wasm-urls.browser.ts';

// The app's base URL: this script is served one directory below it (assets/ in a build, worker/ in dev).
const lab = createLab(createBrowserPlatform({ assetBaseUrl: new URL('../', self.location.href).href }), { javaWasm: () => javaWasmUrls });

/** What the UI can call (worker/lab.ts labApi). Callbacks arrive as Comlink proxies. */
export type WorkerApi = LabApi;

Comlink.expose(lab.api);
