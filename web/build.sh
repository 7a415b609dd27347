#!/usr/bin/env bash
# Builds the playground's editor bundle once: cnl/agent/static/playground.js (committed, so the
# package works offline and users never need npm) and the licences of what it bundles.
# Needs Node.js >= 18 and npm; installs exactly the versions in package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run build
out=../cnl/agent/static/playground.js.LICENSE.txt
{
  echo "Third-party code bundled in playground.js (all MIT-licensed), with their licences:"
  npm ls --omit=dev --all --parseable | tail -n +2 | sort -u | while read -r dir; do
    name=$(node -p "require('$dir/package.json').name + ' ' + require('$dir/package.json').version")
    printf '\n==== %s ====\n' "$name"
    cat "$dir"/LICENSE* 2>/dev/null || echo "(licence: $(node -p "require('$dir/package.json').license"))"
  done
} > "$out"
echo "built ../cnl/agent/static/playground.js and $out"
