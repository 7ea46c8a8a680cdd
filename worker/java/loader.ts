// Loads web-tree-sitter and the tree-sitter-java grammar from wasm bytes or URLs supplied by the host.
// The engine never resolves wasm files itself: the browser passes Vite `?url` imports
// (wasm-urls.browser.ts), Node passes bytes (node-wasm.ts). One analyzer per process/worker.
import { Language, Parser } from 'web-tree-sitter';
import { JavaAnalyzer } from './analyzer.ts';

export type WasmSource = Uint8Array | string | URL;

export interface JavaWasm {
  /** web-tree-sitter's runtime: node_modules/web-tree-sitter/web-tree-sitter.wasm */
  runtimeWasm: WasmSource;
  /** the grammar: node_modules/tree-sitter-java/tree-sitter-java.wasm (ABI 14, loads in web-tree-sitter 0.27) */
  javaWasm: WasmSource;
}

let pending: Promise<JavaAnalyzer> | undefined;
let ready: JavaAnalyzer | undefined;

/** Initialise once; later calls return the same analyzer (the Emscripten runtime cannot be re-initialised). */
export function initJava(wasm: JavaWasm): Promise<JavaAnalyzer> {
  pending ??= load(wasm).then(
    (analyzer) => (ready = analyzer),
    (err: unknown) => {
      pending = undefined;
      throw new Error(`Java parser failed to load (web-tree-sitter ${describe(wasm.runtimeWasm)}, grammar ${describe(wasm.javaWasm)}): ${String(err)}`);
    },
  );
  return pending;
}

/** The analyzer set up by initJava; throws naming what the host must do when it was never initialised. */
export function requireJava(): JavaAnalyzer {
  if (!ready) throw new Error('Java analysis is not initialised: the host must `await initJava({ runtimeWasm, javaWasm })` (worker start-up, or initJavaForNode() in Node) before running tools.');
  return ready;
}

/** Awaitable variant of requireJava for callers that may run while initJava is still loading. */
export async function javaAnalyzer(): Promise<JavaAnalyzer> {
  if (ready) return ready;
  if (pending) return pending;
  return requireJava();
}

async function load(wasm: JavaWasm): Promise<JavaAnalyzer> {
  const runtime = wasm.runtimeWasm;
  if (runtime instanceof Uint8Array) {
    await Parser.init({ wasmBinary: runtime } as object);
  } else {
    const url = String(runtime);
    await Parser.init({ locateFile: () => url });
  }
  const grammar = wasm.javaWasm;
  const language = await Language.load(grammar instanceof Uint8Array ? grammar : String(grammar));
  const parser = new Parser();
  parser.setLanguage(language);
  return new JavaAnalyzer(parser);
}

function describe(source: WasmSource): string {
  return source instanceof Uint8Array ? `${source.byteLength} bytes` : String(source);
}
