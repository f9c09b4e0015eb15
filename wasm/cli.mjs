#!/usr/bin/env node
// The WASM build of the profscope command line: same commands, same stdout
// bytes and same exit codes as the native build/native/profscope.
//
//   node wasm/cli.mjs info|records|stacks|events FILE [--addresses] [--event NAME]
//                     [--option KEY=VALUE]...
//
// Exit codes: 0 decoded, 1 nothing decodable (info still prints its JSON),
// 2 usage error.
import fs from 'node:fs';
import { expandInputs, fatalMessages, openSession, runCommand } from './load-node.mjs';

const USAGE = `usage: profscope info FILE
       profscope records FILE
       profscope stacks FILE [--addresses] [--event NAME]
       profscope events FILE
side files (any command, repeatable): --binary ELF, --jitdump jit-PID.dump,
  --instr-map BINARY_OR_YAML
decoder options (any command, repeatable): --option KEY=VALUE; gperftools:
  pc_minus_one, drop_duplicate_leaf, strip_signal_frames (=1 turns on pprof's
  adjustment); a key the decoder does not know gives a diagnostic (see info)
FILE may be a perf record --threads directory (its data and data.N files),
or several files of one recording given in order (data data.0 data.1 ...).
`;

function usage() {
  process.stderr.write(USAGE);
  return 2;
}

// Same grammar as cli/main.cc: COMMAND first; --addresses / --event NAME /
// --event=NAME only for stacks; --option KEY=VALUE / --option=KEY=VALUE for any
// command; any other option is a usage error.
function parseArgs(argv) {
  if (argv.length < 2) return null;
  const command = argv[0];
  if (!['info', 'records', 'stacks', 'events'].includes(command)) return null;
  const opts = { command, files: [], side: [], options: [], addresses: false, event: '' };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (command === 'stacks' && a === '--addresses') opts.addresses = true;
    else if (command === 'stacks' && a === '--event' && i + 1 < argv.length) opts.event = argv[++i];
    else if (command === 'stacks' && a.startsWith('--event=')) opts.event = a.slice('--event='.length);
    else if (['--binary', '--jitdump', '--instr-map'].includes(a) && i + 1 < argv.length) opts.side.push(argv[++i]);
    else if ((a === '--option' && i + 1 < argv.length) || a.startsWith('--option=')) {
      const kv = a === '--option' ? argv[++i] : a.slice('--option='.length);
      const eq = kv.indexOf('=');
      if (eq <= 0) return null;
      opts.options.push([kv.slice(0, eq), kv.slice(eq + 1)]);
    }
    else if (a.startsWith('-') && a !== '-') return null;
    else opts.files.push(a);
  }
  return opts.files.length === 0 ? null : opts;
}

// Writes everything synchronously (no output lost when the process ends) and
// stops quietly when the reader goes away (| head).
function writeOut(text) {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EPIPE') return;
      throw e;
    }
  }
}

async function main(argv) {
  const opts = parseArgs(argv);
  if (!opts) return usage();
  const { command, files, side, options, addresses, event } = opts;
  const inputs = expandInputs(files);
  for (const { path: file } of [...inputs, ...side.map((p) => ({ path: p }))]) {
    try {
      fs.closeSync(fs.openSync(file, 'r'));
    } catch (e) {
      process.stderr.write(`profscope: cannot open ${file}: ${e.message}\n`);
      return 1;
    }
  }

  const { session, ok, close } = await openSession(files, { side, options });
  try {
    const { stdout, status } = runCommand(session, ok, command, { addresses, event });
    writeOut(stdout);
    if (!ok && command !== 'info') {
      for (const m of fatalMessages(session)) process.stderr.write(`profscope: ${m}\n`);
    }
    return status;
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
