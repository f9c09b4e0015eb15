#!/usr/bin/env bash
# Serves the built static site (web/dist) at http://127.0.0.1:5173 (PORT=... to change).
# Build it first: bash scripts/setup.sh (or npm run build).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${PORT:-5173}"
HOST="${HOST:-127.0.0.1}"
if [[ ! -f web/dist/index.html ]]; then
  echo "web/dist/index.html missing: run 'npm run build' first" >&2
  exit 1
fi
echo
echo "profscope is at http://${HOST}:${PORT}/  (Ctrl-C to stop)"
echo
exec npx --no-install vite preview web --host "$HOST" --port "$PORT" --strictPort
