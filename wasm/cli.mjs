#!/usr/bin/env node
// The WASM build of the profscope command line: same commands, same stdout
// bytes and same exit codes as the native build/native/profscope.
//
//   node wasm/cli.mjs info|records|stacks|events|export FILE [options], diff A B [options]
//   (the grammar of cli/main.cc; USAGE below)
//
// Exit codes: 0 decoded, 1 nothing decodable (info still prints its JSON),
// 2 usage error.
import fs from 'node:fs';
import { expandInputs, fatalMessages, openSession, runCommand } from './load-node.mjs';

const USAGE = `usage: profscope info FILE
       profscope records FILE
       profscope stacks FILE [--addresses] [--event NAME]
       profscope events FILE
       profscope export FILE --format folded|speedscope|gecko|pprof|chrome [-o OUT]
                        [--weight samples|period|time] [--event NAME]
       profscope diff A B [--normalize] [--event NAME]
side files (any command, repeatable; for diff they are offered to both profiles):
  --symbols ELF (or --binary ELF), --jitdump jit-PID.dump, --instr-map BINARY_OR_YAML
decoder options (any command, repeatable): --option KEY=VALUE; gperftools:
  pc_minus_one, drop_duplicate_leaf, strip_signal_frames (=1 turns on pprof's
  adjustment); a key the decoder does not know gives a diagnostic (see info)
FILE may be a perf record --threads directory (its data and data.N files),
or several files of one recording given in order (data data.0 data.1 ...).
export writes OUT (default: standard output); diff prints "STACK COUNT_A COUNT_B"
per folded stack (difffolded.pl's form), --normalize scales A to B's total.
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
  if (!['info', 'records', 'stacks', 'events', 'export', 'diff'].includes(command)) return null;
  const opts = {
    command, files: [], side: [], options: [], addresses: false, event: '',
    format: '', weight: '', output: '', normalize: false,
  };
  const hasEvent = ['stacks', 'export', 'diff'].includes(command);
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (command === 'stacks' && a === '--addresses') opts.addresses = true;
    else if (hasEvent && a === '--event' && i + 1 < argv.length) opts.event = argv[++i];
    else if (hasEvent && a.startsWith('--event=')) opts.event = a.slice('--event='.length);
    else if (command === 'export' && a === '--format' && i + 1 < argv.length) opts.format = argv[++i];
    else if (command === 'export' && a.startsWith('--format=')) opts.format = a.slice('--format='.length);
    else if (command === 'export' && a === '--weight' && i + 1 < argv.length) opts.weight = argv[++i];
    else if (command === 'export' && a.startsWith('--weight=')) opts.weight = a.slice('--weight='.length);
    else if (command === 'export' && a === '-o' && i + 1 < argv.length) opts.output = argv[++i];
    else if (command === 'diff' && a === '--normalize') opts.normalize = true;
    else if (['--symbols', '--binary', '--jitdump', '--instr-map'].includes(a) && i + 1 < argv.length) opts.side.push(argv[++i]);
    else if ((a === '--option' && i + 1 < argv.length) || a.startsWith('--option=')) {
      const kv = a === '--option' ? argv[++i] : a.slice('--option='.length);
      const eq = kv.indexOf('=');
      if (eq <= 0) return null;
      opts.options.push([kv.slice(0, eq), kv.slice(eq + 1)]);
    }
    else if (a.startsWith('-') && a !== '-') return null;
    else opts.files.push(a);
  }
  if (opts.files.length === 0) return null;
  if (command === 'export' && !opts.format) return null;
  if (command === 'diff' && opts.files.length !== 2) return null;
  return opts;
}

// Writes everything synchronously (no output lost when the process ends) and
// stops quietly when the reader goes away (| head).
function writeOut(text) {
  const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
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

function canOpen(files) {
  for (const file of files) {
    try {
      fs.closeSync(fs.openSync(file, 'r'));
    } catch (e) {
      process.stderr.write(`profscope: cannot open ${file}: ${e.message}\n`);
      return false;
    }
  }
  return true;
}

// Writes bytes to a file (or standard output for '' / '-'); false after a message.
function writeTo(output, bytes) {
  if (!output || output === '-') {
    writeOut(bytes);
    return true;
  }
  try {
    fs.writeFileSync(output, bytes);
    return true;
  } catch (e) {
    process.stderr.write(`profscope: cannot write ${output}: ${e.message}\n`);
    return false;
  }
}

async function diff({ files, side, options, event, normalize }) {
  if (!canOpen([...files, ...side])) return 1;
  const a = await openSession(files[0], { side, options });
  try {
    const b = await openSession(files[1], { side, options });
    try {
      if (!a.ok || !b.ok) {
        for (const m of fatalMessages((a.ok ? b : a).session)) process.stderr.write(`profscope: ${m}\n`);
        return 1;
      }
      const { text, error } = a.session.diffText(b.session, event, normalize);
      if (error) {
        process.stderr.write(`profscope: ${error}\n`);
        return 1;
      }
      writeOut(text);
      return 0;
    } finally {
      b.close();
    }
  } finally {
    a.close();
  }
}

async function main(argv) {
  const opts = parseArgs(argv);
  if (!opts) return usage();
  if (opts.command === 'diff') return diff(opts);
  const { command, files, side, options, addresses, event } = opts;
  const inputs = expandInputs(files);
  if (!canOpen([...inputs.map((i) => i.path), ...side])) return 1;

  const { session, ok, close } = await openSession(files, { side, options });
  try {
    if (command === 'export' && ok) {
      const { bytes, error } = session.exportFile(opts.format, opts.weight, event);
      if (error) {
        process.stderr.write(`profscope: export: ${error}\n`);
        return 1;
      }
      return writeTo(opts.output, bytes) ? 0 : 1;
    }
    const { stdout, status } = command === 'export' ? { stdout: '', status: 1 } : runCommand(session, ok, command, { addresses, event });
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
