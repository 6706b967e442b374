"""Kernel Lab's main file: Streamlit serves app.py (the router) with the lab's own routes beside it.

`streamlit run serve.py` finds `app`, a Streamlit st.App, and serves it: every page as `streamlit run app.py` would,
plus GET <base>/live/<section> for each live section of the registry, which answers a slider's move with the
section's figures while the script reruns (lab/live.py, lab/section.py), and the security headers on every response
(lab/headers.py). On Streamlit Community Cloud, this is the main file.
"""

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

from lab import headers, live, server
from lessons import registry

app = st.App(str(Path(__file__).resolve().with_name("app.py")), routes=live.routes(registry.sections()),
             middleware=[Middleware(headers.SecurityHeaders)])
# before the server listens (the sections' imports above loaded NumPy's BLAS): a route can compute before any page
# has run app.py's tune_process
server.one_blas_thread()
