#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the inspector's browser tests and prints its
# path (RUNVIL_TEST_CHROMIUM). Idempotent: installs the chromium package only when missing;
# Playwright drives it by its executable path and downloads nothing. Usage:
#   export RUNVIL_TEST_CHROMIUM="$(bash scripts/test-chromium.sh)"
set -euo pipefail
path="${RUNVIL_TEST_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$path" ]; then
  echo "test-chromium: installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends chromium >&2
fi
if [ ! -x "$path" ]; then
  echo "test-chromium: no Chromium at $path after installing chromium" >&2
  exit 1
fi
"$path" --version >&2
echo "$path"
