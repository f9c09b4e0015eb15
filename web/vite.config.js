// Vite config of the profscope web app (root: web/, output: web/dist).
// `vite build web` from the repo root uses this file.
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: webRoot,
  // Relative asset URLs: web/dist works from any path (a sub-folder, a wiki iframe, file server).
  base: './',
  plugins: [preact()],
  resolve: {
    alias: {
      // The Emscripten glue + .wasm built by CMake (MODULARIZE + EXPORT_ES6, factory as default export).
      // PROFSCOPE_WASM_DIR points elsewhere (another build directory) when set.
      '@profscope-wasm': process.env.PROFSCOPE_WASM_DIR || fileURLToPath(new URL('../build/wasm', import.meta.url)),
    },
  },
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Never inline the .wasm (or the sample) as a data: URL; emit them as files.
    assetsInlineLimit: (file) => (/\.(wasm|data)$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 2048,
  },
  server: {
    fs: { allow: [repoRoot] },
  },
  preview: {
    host: '127.0.0.1',
  },
});
