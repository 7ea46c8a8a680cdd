// Browser: Vite emits both wasm files as assets and gives their URLs; pass the result to initJava().
import runtimeWasm from 'web-tree-sitter/web-tree-sitter.wasm?url';
import javaWasm from 'tree-sitter-java/tree-sitter-java.wasm?url';
import type { JavaWasm } from './loader.ts';

export const javaWasmUrls: JavaWasm = { runtimeWasm, javaWasm };
