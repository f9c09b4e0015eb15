#!/usr/bin/env node
// The WASM build of the profscope command line: a shell around the command
// line of core/api/cli.h (grammar, usage, dispatch), reached through
// wasm/cli_bindings.cc's runCli. This file only gives it the files and
// stdout/stderr, so it prints the same bytes and exits with the same status
// as the native build/native/profscope:
//   node wasm/cli.mjs info|records|stacks|events FILE [options]   (see the usage text)
import fs from 'node:fs';
import { loadProfscope, nodeCliHost } from './load-node.mjs';

// Writes everything synchronously (no output lost when the process ends) and
// stops quietly when the reader goes away (| head).
function writer(fd) {
  let closed = false;
  return (bytes) => {
    let off = 0;
    while (!closed && off < bytes.length) {
      try {
        off += fs.writeSync(fd, bytes, off, bytes.length - off);
      } catch (e) {
        if (e.code === 'EAGAIN') continue;
        if (e.code === 'EPIPE') closed = true;
        else throw e;
      }
    }
  };
}

async function main(args) {
  const mod = await loadProfscope();
  const { host, close } = nodeCliHost({ stdout: writer(1), stderr: writer(2) });
  try {
    return mod.runCli(args, host);
  } finally {
    close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`profscope: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 1;
  },
);
