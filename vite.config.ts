// The static app: lit UI on the main thread, the engine in one module worker (worker/worker-entry.ts).
import { defineConfig, type Rollup } from 'vite';
import { fileURLToPath } from 'node:url';

/**
 * Two known, harmless warnings kept out of the build output: web-tree-sitter's Emscripten glue uses direct eval,
 * and just-bash's browser bundle names node:zlib for its gzip commands, which HAFixAgent's toolkit does not offer.
 */
function onLog(level: string, log: Rollup.RollupLog, handler: (level: 'warn' | 'info' | 'debug' | 'error', log: Rollup.RollupLog) => void) {
  if (log.code === 'EVAL' && (log.id ?? log.loc?.file ?? '').includes('web-tree-sitter')) return;
  if (log.message.includes('"node:zlib" has been externalized') && log.message.includes('just-bash')) return;
  handler(level as 'warn', log);
}

export default defineConfig({
  base: './',
  resolve: {
    alias: {
      // lightning-fs's TextEncoder polyfill crashes in module workers (see docs/ARCHITECTURE.md, stack notes).
      'fast-text-encoding': fileURLToPath(new URL('./worker/shims/empty.ts', import.meta.url)),
    },
  },
  worker: { format: 'es', rollupOptions: { onLog } },
  build: { target: 'es2022', outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 4096, rollupOptions: { onLog } },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
