#!/usr/bin/env bash
# Seeds of perf_dir_fuzz: each perf record --threads recording of tests/data/perf_dir as one input
# (data, data.0, ... each but the last prefixed by its u32 little-endian length).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/fuzz/seeds/perf_dir_fuzz"
mkdir -p "$OUT"
for dir in "$ROOT"/tests/data/perf_dir/*/perf.data; do
  name=$(basename "$(dirname "$dir")")
  files=("$dir/data")
  for f in $(ls "$dir" | grep -E '^data\.[0-9]+$' | sort -t. -k2 -n); do files+=("$dir/$f"); done
  python3 - "$OUT/$name" "${files[@]}" <<'PY'
import struct, sys
out, files = sys.argv[1], sys.argv[2:]
blob = b''
for k, f in enumerate(files):
    b = open(f, 'rb').read()
    blob += (struct.pack('<I', len(b)) if k + 1 < len(files) else b'') + b
open(out, 'wb').write(blob)
PY
done
