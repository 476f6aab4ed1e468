#!/usr/bin/env bash
# Installs playwright-core, which the browser test of `mcpgen dev`'s page
# uses to drive Debian's chromium, at the version pinned in
# runtime/devpage/browsertest/package-lock.json, into .cache/devpage
# (gitignored). The test skips when it is absent, unless
# MCPGEN_TEST_BROWSER_REQUIRED=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/runtime/devpage/browsertest
dst=$root/.cache/devpage
mkdir -p "$dst"
cp "$src"/package.json "$src"/package-lock.json "$src"/*.mjs "$dst"/
if cmp -s "$src/package-lock.json" "$dst/node_modules/.package-lock.json.installed" 2>/dev/null; then
  exit 0
fi
(cd "$dst" && npm ci --no-audit --no-fund --loglevel=error >&2)
cp "$src/package-lock.json" "$dst/node_modules/.package-lock.json.installed"
