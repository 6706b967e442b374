#!/usr/bin/env bash
# Create .venv and install the pinned packages; used by run.sh and test.sh.
# Usage: scripts/setup.sh [requirements file]   (default: requirements.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
req=${1:-requirements.txt}
[ -x .venv/bin/python ] || python3 -m venv .venv
stamp=".venv/.installed-$(basename "$req")"
if [ ! -f "$stamp" ] || [ "$req" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  touch "$stamp"
fi
