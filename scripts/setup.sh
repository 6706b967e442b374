#!/usr/bin/env bash
# Create .venv with Python 3.11 or newer and install the pinned packages; used by run.sh, test.sh and lecture.sh.
# Every package goes in at the version requirements.lock names (pip's -c): the direct requirements and all they
# pull in, so a lecture runs the versions the tests ran.
# Usage: scripts/setup.sh [requirements file]   (default: requirements.txt)
# PYTHON=/path/to/python3.12 picks the interpreter that creates .venv (default: python3 if it is 3.11 or newer, else
# python3.13, python3.12, python3.11, whichever is found first).
set -euo pipefail
cd "$(dirname "$0")/.."
req=${1:-requirements.txt}

# streamlit 1.67 and numpy 2.4 need Python 3.11 or newer; pip would only say "No matching distribution"
new_enough() {
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

if [ ! -x .venv/bin/python ]; then
  python=""
  for candidate in ${PYTHON:-} python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
      python=$candidate
      break
    fi
  done
  if [ -z "$python" ]; then
    found="is not installed"
    command -v python3 >/dev/null && found="is $(python3 --version 2>&1)"
    echo "Kernel Lab needs Python 3.11 or newer: python3 $found and no python3.13, python3.12 or python3.11 was found; install one of them and run this again." >&2
    exit 1
  fi
  echo "Creating .venv with $("$python" --version 2>&1) ($(command -v "$python"))"
  if ! "$python" -m venv .venv; then
    rm -rf .venv
    echo "$python could not create a virtual environment: install its venv module (on Debian or Ubuntu: apt-get install python3-venv) and run this again." >&2
    exit 1
  fi
elif ! new_enough .venv/bin/python; then
  echo ".venv was made with $(.venv/bin/python --version 2>&1) and Kernel Lab needs Python 3.11 or newer: remove it (rm -rf .venv) and run this again." >&2
  exit 1
fi

stamp=".venv/.installed-$(basename "$req")"
if [ ! -f "$stamp" ] || [ "$req" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ] || [ requirements.lock -nt "$stamp" ]; then
  quiet=""
  if compgen -G ".venv/.installed-*" >/dev/null; then
    quiet=--quiet  # an update of an installed .venv: only what changed is downloaded
    echo "Updating .venv to $req and requirements.lock"
  else
    echo "Installing the packages of $req into .venv: this takes about a minute on a first run"
  fi
  .venv/bin/python -m pip install $quiet --disable-pip-version-check -r "$req" -c requirements.lock
  touch "$stamp"
fi
