#!/usr/bin/env node
// Runs every check in sequence (after scripts/setup.sh has built everything):
//   1. ctest      C++ unit + corpus tests (build/native)
//   2. tsc        the decoding worker type-checked against wasm/profscope.d.ts (web/tsconfig.json)
//   3. vitest     node tests in tests/node (WASM module, CLI parity), tests/reference (the
//                 JavaScript aggregation the core is held to) and web/src/**/*.test.js
//   4. playwright browser tests (e2e/playwright.config.js), if present
// Counts come from machine-readable reports (JUnit XML, JSON). A suite that
// crashes, times out or whose counts cannot be read counts as 1 failed.
// Last line: "N passed, N failed". Exit code 1 when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build', 'test-results');
const SUITE_TIMEOUT_MS = Number(process.env.PROFSCOPE_SUITE_TIMEOUT_MS || 30 * 60 * 1000);
fs.mkdirSync(OUT, { recursive: true });

const env = {
  ...process.env,
  NODE_PATH: process.env.NODE_PATH || '/usr/share/nodejs',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
};
// plain logs when not on a terminal (CI)
if (!process.stdout.isTTY && !('FORCE_COLOR' in env)) env.NO_COLOR = '1';

function run(cmd, args, extraEnv = {}) {
  console.log(`\n$ ${[cmd, ...args].join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...env, ...extraEnv },
    timeout: SUITE_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  let problem = null;
  if (r.error) problem = r.error.code === 'ETIMEDOUT' ? `timed out after ${SUITE_TIMEOUT_MS / 1000}s` : String(r.error);
  else if (r.signal) problem = `killed by ${r.signal}`;
  return { status: r.status, problem, seconds };
}

function readIfFresh(file, since) {
  try {
    const st = fs.statSync(file);
    if (st.mtimeMs + 1000 < since) return null; // left over from an earlier run
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function hasFiles(dir, re) {
  if (!fs.existsSync(dir)) return false;
  const walk = (d) =>
    fs.readdirSync(d, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? walk(path.join(d, e.name)) : re.test(e.name),
    );
  return walk(dir);
}

// ---- suites ---------------------------------------------------------------------
function ctest() {
  const dir = path.join(ROOT, 'build', 'native');
  if (!fs.existsSync(path.join(dir, 'CTestTestfile.cmake'))) {
    return { error: 'build/native is not configured (run scripts/build.sh)' };
  }
  const junit = path.join(OUT, 'ctest.xml');
  const since = Date.now();
  const r = run('ctest', ['--test-dir', 'build/native', '--output-on-failure', '-j2', '--output-junit', junit]);
  if (r.problem) return { error: r.problem, seconds: r.seconds };
  const xml = readIfFresh(junit, since);
  const tag = xml && xml.match(/<testsuite\b[^>]*>/);
  if (!tag) {
    // "No tests were found" leaves no report; any other missing report is a crash.
    return r.status === 0 ? { passed: 0, failed: 0, skipped: 0, seconds: r.seconds, note: 'no tests found' }
                          : { error: `ctest exited ${r.status} without a report`, seconds: r.seconds };
  }
  const attr = (n) => Number((tag[0].match(new RegExp(`\\b${n}="(\\d+)"`)) || [0, 0])[1]);
  const total = attr('tests');
  const failed = attr('failures') + attr('errors');
  const skipped = attr('skipped') + attr('disabled');
  const res = { passed: Math.max(0, total - failed - skipped), failed, skipped, seconds: r.seconds };
  if (r.status !== 0 && failed === 0) res.failed = 1, res.note = `ctest exited ${r.status}`;
  return res;
}

// The worker's contract: `tsc --noEmit` over the worker's JavaScript (// @ts-check, JSDoc types)
// against wasm/profscope.d.ts. One test per project; each error it prints counts as a failure.
function tsc() {
  const project = path.join(ROOT, 'web', 'tsconfig.json');
  if (!fs.existsSync(project)) return { absent: 'no web/tsconfig.json' };
  const r = spawnSync('npx', ['--no-install', 'tsc', '-p', project, '--pretty', 'false'], {
    cwd: ROOT, env, encoding: 'utf8', timeout: SUITE_TIMEOUT_MS, killSignal: 'SIGKILL',
  });
  console.log(`\n$ npx tsc -p web/tsconfig.json`);
  if (r.error) return { error: String(r.error) };
  const out = `${r.stdout || ''}${r.stderr || ''}`;
  process.stdout.write(out);
  const errors = (out.match(/error TS\d+/g) || []).length;
  if (r.status !== 0 && errors === 0) return { error: `tsc exited ${r.status}` };
  return errors ? { passed: 0, failed: errors, skipped: 0 } : { passed: 1, failed: 0, skipped: 0 };
}

function vitest() {
  // node tests (tests/node), the reference aggregation's tests (tests/reference) and the web
  // app's unit tests (web/src/**/*.test.js); never e2e/*.spec.js
  const dirs = [];
  if (hasFiles(path.join(ROOT, 'tests', 'node'), /\.(test|spec)\.[cm]?[jt]sx?$/)) dirs.push('tests/node');
  if (hasFiles(path.join(ROOT, 'tests', 'reference'), /\.test\.[cm]?[jt]sx?$/)) dirs.push('tests/reference');
  if (hasFiles(path.join(ROOT, 'web', 'src'), /\.test\.[cm]?[jt]sx?$/)) dirs.push('web/src');
  if (!dirs.length) return { absent: 'no tests in tests/node or web/src' };
  const json = path.join(OUT, 'vitest.json');
  const since = Date.now();
  const r = run('npx', ['--no-install', 'vitest', 'run', '--root', '.', ...dirs,
    '--reporter=default', '--reporter=json', `--outputFile.json=${json}`]);
  if (r.problem) return { error: r.problem, seconds: r.seconds };
  const text = readIfFresh(json, since);
  if (!text) return { error: `vitest exited ${r.status} without a report`, seconds: r.seconds };
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { error: `unreadable vitest report: ${e.message}`, seconds: r.seconds };
  }
  const res = {
    passed: j.numPassedTests ?? 0,
    failed: j.numFailedTests ?? 0,
    skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0),
    seconds: r.seconds,
  };
  // a test file that fails to load has no failed test but a failed suite
  if (res.failed === 0 && (j.numFailedTestSuites > 0 || r.status !== 0 || j.success === false)) {
    res.failed = Math.max(1, j.numFailedTestSuites ?? 0);
    res.note = `vitest exited ${r.status}, ${j.numFailedTestSuites ?? '?'} test file(s) failed`;
  }
  return res;
}

function playwright() {
  const config = ['e2e/playwright.config.js', 'e2e/playwright.config.mjs', 'e2e/playwright.config.ts']
    .find((f) => fs.existsSync(path.join(ROOT, f)));
  if (!config) return { absent: 'no e2e/playwright.config.*' };
  const json = path.join(OUT, 'playwright.json');
  const since = Date.now();
  const r = run('npx', ['--no-install', 'playwright', 'test', '-c', config, '--reporter=list,json'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: json });
  if (r.problem) return { error: r.problem, seconds: r.seconds };
  const text = readIfFresh(json, since);
  if (!text) return { error: `playwright exited ${r.status} without a report`, seconds: r.seconds };
  let s;
  try {
    s = JSON.parse(text).stats;
  } catch (e) {
    return { error: `unreadable playwright report: ${e.message}`, seconds: r.seconds };
  }
  if (!s) return { error: 'playwright report has no stats', seconds: r.seconds };
  const res = {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: s.unexpected ?? 0,
    skipped: s.skipped ?? 0,
    seconds: r.seconds,
  };
  if (res.failed === 0 && r.status !== 0) res.failed = 1, res.note = `playwright exited ${r.status}`;
  return res;
}

// libFuzzer targets (fuzz/run.sh: clang ASan+UBSan build in build/fuzz, replays
// fuzz/regressions, then fuzzes each target PROFSCOPE_FUZZ_SECONDS, default 60).
// One pass/fail per target (and per target's regression replay); set
// PROFSCOPE_FUZZ_SECONDS=0 to skip the suite.
function fuzz() {
  if (!fs.existsSync(path.join(ROOT, 'fuzz', 'run.sh'))) return { absent: 'no fuzz/run.sh' };
  const secs = process.env.PROFSCOPE_FUZZ_SECONDS ?? '60';
  if (secs === '0') return { absent: 'PROFSCOPE_FUZZ_SECONDS=0' };
  const json = path.join(OUT, 'fuzz.json');
  const since = Date.now();
  const r = run('bash', ['fuzz/run.sh'], { FUZZ_SECONDS: secs });
  if (r.problem) return { error: r.problem, seconds: r.seconds };
  const text = readIfFresh(json, since);
  if (!text) return { error: `fuzz/run.sh exited ${r.status} without a report`, seconds: r.seconds };
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { error: `unreadable fuzz report: ${e.message}`, seconds: r.seconds };
  }
  const res = { passed: j.passed ?? 0, failed: j.failed ?? 0, skipped: 0, seconds: r.seconds };
  if (res.failed === 0 && r.status !== 0) res.failed = 1, res.note = `fuzz/run.sh exited ${r.status}`;
  return res;
}

// ---- run them all ------------------------------------------------------------------------
const suites = [['ctest', ctest], ['tsc', tsc], ['vitest', vitest], ['playwright', playwright], ['fuzz', fuzz]];
const results = [];
for (const [name, fn] of suites) {
  let res;
  try {
    res = fn();
  } catch (e) {
    res = { error: e && e.stack ? e.stack : String(e) };
  }
  if (res.error) res = { ...res, passed: 0, failed: 1, skipped: 0, note: res.error };
  results.push([name, res]);
}

console.log('\n== summary ==');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const [name, r] of results) {
  if (r.absent) {
    console.log(`suite ${name.padEnd(10)} not run (${r.absent})`);
    continue;
  }
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
  const extra = [r.seconds ? `${r.seconds}s` : null, r.note].filter(Boolean).join('; ');
  console.log(`suite ${name.padEnd(10)} passed=${r.passed} failed=${r.failed} skipped=${r.skipped}${extra ? `  (${extra})` : ''}`);
}
if (skipped) console.log(`(${skipped} skipped in all)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
