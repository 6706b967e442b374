#!/usr/bin/env bash
# Run every test: core vs oracles, properties, each page under AppTest, the app in headless Chromium.
# Installs the test packages into .venv and Debian's chromium (browser tests) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh requirements-test.txt
if [ ! -x /usr/bin/chromium ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
exec .venv/bin/python -m pytest -n 2 -q -p no:cacheprovider "$@"
