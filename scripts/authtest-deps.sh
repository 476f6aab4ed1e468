#!/usr/bin/env bash
# Installs the Node packages mcpgen's tests use (a local OAuth server,
# npm oidc-provider, the official TypeScript MCP client, and `mcpb validate`), at the
# versions pinned in runtime/auth/authtest/node/package-lock.json, into
# .cache/authtest (gitignored). Tests that need them skip when absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/runtime/auth/authtest/node
dst=$root/.cache/authtest
mkdir -p "$dst"
cp "$src"/package.json "$src"/package-lock.json "$src"/*.mjs "$dst"/
if cmp -s "$src/package-lock.json" "$dst/node_modules/.package-lock.json.installed" 2>/dev/null; then
  exit 0
fi
(cd "$dst" && npm ci --no-audit --no-fund --loglevel=error >&2)
cp "$src/package-lock.json" "$dst/node_modules/.package-lock.json.installed"
