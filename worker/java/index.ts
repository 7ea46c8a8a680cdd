// Java code intelligence: initialise with initJava(...) (or initJavaForNode() in Node), then use the analyzer.
export { initJava, requireJava, javaAnalyzer } from './loader.ts';
export type { JavaWasm, WasmSource } from './loader.ts';
export { JavaAnalyzer } from './analyzer.ts';
export type { CallSite, Declaration, LineKind, MethodSource } from './analyzer.ts';
