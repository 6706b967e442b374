#!/usr/bin/env bash
# Run the linter and every test: core vs oracles, properties, each page under AppTest, the app in headless Chromium.
# Installs the test packages into .venv and Debian's chromium (browser tests) and haproxy (lecture tests)
# when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh requirements-test.txt
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing="$missing haproxy"
if [ -n "$missing" ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi
# the linter first (ruff.toml): a style slip fails in a second, not after the whole suite
.venv/bin/ruff check .
# loadgroup: the lecture tests share one scripts/lecture.sh and run in order on one worker
exec .venv/bin/python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider "$@"
