#!/usr/bin/env bash
# Run Kernel Lab locally: installs what it needs on first use, then serves http://localhost:8501
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh requirements.txt
exec .venv/bin/python -m streamlit run serve.py "$@"
