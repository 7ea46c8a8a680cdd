// Node only (tests, CLI): resolve the two wasm files from node_modules and initialise the analyzer.
// Never imported by browser code; the browser uses wasm-urls.browser.ts.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { initJava } from './loader.ts';
import type { JavaAnalyzer } from './analyzer.ts';

export async function nodeJavaWasm(): Promise<{ runtimeWasm: Uint8Array; javaWasm: Uint8Array }> {
  const require = createRequire(import.meta.url);
  const [runtimeWasm, javaWasm] = await Promise.all([
    readFile(require.resolve('web-tree-sitter/web-tree-sitter.wasm')),
    readFile(require.resolve('tree-sitter-java/tree-sitter-java.wasm')),
  ]);
  return { runtimeWasm: new Uint8Array(runtimeWasm), javaWasm: new Uint8Array(javaWasm) };
}

export async function initJavaForNode(): Promise<JavaAnalyzer> {
  return initJava(await nodeJavaWasm());
}
