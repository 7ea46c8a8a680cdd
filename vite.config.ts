// The static app: lit UI on the main thread, the engine in one module worker (worker/worker-entry.ts).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  base: './',
  resolve: {
    alias: {
      // lightning-fs's TextEncoder polyfill crashes in module workers (see docs/ARCHITECTURE.md, stack notes).
      'fast-text-encoding': fileURLToPath(new URL('./worker/shims/empty.ts', import.meta.url)),
    },
  },
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 4096 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
