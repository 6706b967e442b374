"""The lab served as an ASGI app (Streamlit 1.67's st.App, which `streamlit run` detects) with one more route:
GET /bench/primal-dual?C=<c> answers lesson 3's two figures at its default settings and that C, as the chart
element's figure JSON: {"boundary": <decision plot>, "alpha": <α bars>}. bench/route_probe.py times a slider
move made through it; the app itself is unchanged."""

import sys
from pathlib import Path

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _figures(C):
    from lessons.compute_primal_dual import Setup, alpha_bars, dual_figure, snapshot_labels, solve
    from lessons.data import TEST_SEED_OFFSET, load
    from lessons.live_chart import _figure_json

    # lesson 3's defaults: the sidebar's circles (n = 100, noise 0.1, seed 0), explicit φ, with offset
    X, y = load("circles", 100, 0.1, 0, (), False, False)
    test = load("circles", 100, 0.1, TEST_SEED_OFFSET, (), False, False)
    setup = Setup(C=C)
    d = solve(X, y, test, setup).dual
    alpha = alpha_bars(d.alpha, y, C, height=460, snapshots=d.snapshot_alpha, labels=snapshot_labels(d))
    boundary = dual_figure(X, y, test, setup, ())
    return '{"boundary":' + _figure_json(boundary)[0] + ',"alpha":' + _figure_json(alpha)[0] + "}"


async def primal_dual(request):
    try:
        C = float(request.query_params["C"])
    except (KeyError, ValueError):
        return JSONResponse({"error": "give C as a number, e.g. ?C=1.5"}, status_code=400)
    if not 1e-3 <= C <= 1e3:
        return JSONResponse({"error": "C must lie in [0.001, 1000]"}, status_code=400)
    return Response(await run_in_threadpool(_figures, C), media_type="application/json")


app = st.App(str(ROOT / "app.py"), routes=[Route("/bench/primal-dual", primal_dual)])
