"""Live figures: a slider's move answered by a route of the server before its rerun.

A slider move reruns its section (a Streamlit fragment), and the browser then renders every element of the page
again on each of the 14–16 commits a rerun takes (docs/PERFORMANCE.md): the figures were drawn last, 3–4 × later
than in an app with one slider and one figure. So the sliders of a section also have a route: the moment one takes a
new value, the chart element (lessons/live_chart_web/live_chart.js) asks GET /live/<section>?<the page's link, with
the slider's new value>&_charts=<the charts on the student's screen> and draws the figures it answers in place. The
element holds the move's rerun back until they are drawn (the browser would otherwise render the whole page for the
rerun while the answer is on its way, and the rerun's Python would share this process with the route); the rerun
then brings the same figures (the element draws a figure only when its JSON changed) and everything else: numbers,
tables, the link. After a move of one step, while its figures are drawn, the element asks for the slider's next
position the same way, so a key held down or a drag finds each answer already in the browser.

The route computes with the functions the page calls (one `figures` function per section), from the link the way a
shared link is read (lessons/state.py): a value the link cannot hold is refused with 400 and its reason, and the
rerun alone then draws what the page makes of it. Where the page draws no such figures (a setting the core refuses)
it answers 204. Served without the routes (`streamlit run app.py`, AppTest), the element gets 404 and leaves every
move to the rerun.

serve.py, the app's main file, serves app.py with these routes (Streamlit's st.App).
"""

import json
import math

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import datasets
from kernel_core.kernels import KernelSpec
from lessons import data, points
from lessons.compute_circle import figures as circle_figures
from lessons.compute_feature_maps import cost_figures, taylor_figures
from lessons.compute_mercer import analyze_kernel, gram_figures, gram_points
from lessons.compute_pegasos import FIGURE_KEYS as PEGASOS_KEYS, Setup as PegasosSetup, figures as pegasos_figures
from lessons.compute_primal_dual import Setup, figures as primal_dual_figures, ovr_figures, solve
from lessons.compute_regression import descent_figures, logistic_figures, ridge_figures
from lessons.live_chart import figure_json
from lessons.state import FIELDS, decode, encode
from lessons.widgets import kernel_spec

ROUTE = "live"
# the query's list of the charts to answer (comma-separated keys); not a field of the link
CHARTS_PARAM = "_charts"
# the longest query a route reads: every field of the schema and MAX_USER_POINTS points fit
MAX_QUERY = 16_000
SIDEBAR_KEYS = ("dataset", "n", "noise", "seed", "only_mine")


def settings(params, keys):
    """The values of `keys` a link with query `params` (a mapping of key → text) stands for: each field's default when
    the link leaves it out, as a page reads a shared link; ValueError, saying why, for a value no field can hold."""
    values = {}
    for key in keys:
        field = FIELDS[key]
        text = params.get(key)
        values[key] = field.default if text is None else decode(field, text)
    return values


def _primal_dual(params, keys):
    """Lesson 3's two figures for the link (one-vs-rest's one where kernel mode has more than two classes), or None
    where the page draws none."""
    fields = ("pd_space", "pd_phi", "pd_offset", "pd_hard", "pd_C", "pd_kernel", "pd_gamma", "pd_degree", "pd_coef0")
    s = settings(params, SIDEBAR_KEYS + fields)
    space = s["pd_space"]
    kernel = kernel_spec(s["pd_kernel"], s["pd_gamma"], s["pd_degree"], s["pd_coef0"])
    setup = Setup(space, s["pd_phi"] if space == "explicit" else None,
                  kernel if space == "kernel" else KernelSpec("linear"), s["pd_offset"],
                  math.inf if s["pd_hard"] else float(s["pd_C"]))
    own = points.decode(params.get("pts", ""))
    try:
        X, y = data.train_set(s, own, multiclass=space == "kernel")
        if space == "kernel" and not np.array_equal(np.unique(y), (-1.0, 1.0)):
            return ovr_figures(X, y, data.test_set(s, multiclass=True), setup, own)   # one-vs-rest
        test = data.test_set(s)
        result = solve(X, y, test, setup)
    except ValueError:
        return None       # the page shows the core's message
    if not result.dual.converged or (result.primal and not result.primal.converged):
        return None
    return primal_dual_figures(X, y, test, setup, own)


def _circle(params, keys):
    """Lesson 2's two figures for the link, or None where the page draws none."""
    s = settings(params, SIDEBAR_KEYS + ("cl_data", "cl_lift", "cl_hard", "cl_C"))
    own = points.decode(params.get("pts", ""))
    sidebar = {**s, "dataset": "circle_rule"} if s["cl_data"] == "notes" else s
    try:
        X, y = data.train_set(sidebar, own)
        return circle_figures(X, y, s["cl_lift"], math.inf if s["cl_hard"] else float(s["cl_C"]), own)
    except ValueError:
        return None


def _mercer(params, keys):
    """Lesson 5's Gram-tab figures for the link, or None where the page draws none."""
    s = settings(params, SIDEBAR_KEYS + ("mc_kernel", "mc_gamma", "mc_degree", "mc_coef0"))
    try:
        X, y = data.train_set(s, points.decode(params.get("pts", "")))
        Xs, ys = gram_points(X, y)
        kernel = kernel_spec(s["mc_kernel"], s["mc_gamma"], s["mc_degree"], s["mc_coef0"])
        return gram_figures(Xs, ys, analyze_kernel(Xs, kernel))
    except ValueError:
        return None


def _cost(params, keys):
    """Lesson 1's cost chart for the link."""
    s = settings(params, ("fm_d", "fm_p"))
    return cost_figures(s["fm_d"], s["fm_p"])


def _taylor(params, keys):
    """Lesson 1's Taylor charts for the link."""
    s = settings(params, ("fm_m", "fm_gamma", "fm_z"))
    return taylor_figures(s["fm_gamma"], s["fm_z"], s["fm_m"])


def _house(params, keys):
    """Lesson 6's house-price charts (kernel ridge, gradient descent) for the link; None where the page draws none."""
    s = settings(params, ("seed", "rg_n", "rg_kernel", "rg_gamma", "rg_degree", "rg_coef0", "rg_lam", "rg_eta",
                          "rg_T", "rg_mode"))
    spec = kernel_spec(s["rg_kernel"], s["rg_gamma"], s["rg_degree"], s["rg_coef0"])
    try:
        x, y = datasets.make_dataset("house_prices", s["rg_n"], random_state=s["seed"])
        return {**ridge_figures(x, y, spec, s["rg_lam"]),
                **descent_figures(x, y, spec, s["rg_eta"], s["rg_T"], s["rg_mode"] == "stochastic", s["seed"])}
    except ValueError:
        return None


def _logistic(params, keys):
    """Lesson 6's logistic charts for the link, or None where the page draws none."""
    s = settings(params, SIDEBAR_KEYS + ("rgl_kernel", "rgl_gamma", "rgl_degree", "rgl_coef0", "rgl_lam", "rgl_T"))
    own = points.decode(params.get("pts", ""))
    try:
        X, y = data.train_set(s, own)
        spec = kernel_spec(s["rgl_kernel"], s["rgl_gamma"], s["rgl_degree"], s["rgl_coef0"])
        return logistic_figures(X, y, spec, s["rgl_lam"], s["rgl_T"], own)
    except ValueError:
        return None


def _pegasos(params, keys):
    """Lesson 4's five charts for the link, or None where the page draws none."""
    s = settings(params, SIDEBAR_KEYS + ("pg_kernel", "pg_gamma", "pg_degree", "pg_coef0", "pg_lam", "pg_T",
                                         "pg_seed", "pg_epochs", "pg_replay", "pg_iterate"))
    own = points.decode(params.get("pts", ""))
    setup = PegasosSetup(kernel_spec(s["pg_kernel"], s["pg_gamma"], s["pg_degree"], s["pg_coef0"]), s["pg_lam"],
                         s["pg_T"], s["pg_seed"], s["pg_epochs"])
    try:
        X, y = data.train_set(s, own)
        return pegasos_figures(X, y, setup, s["pg_replay"], s["pg_iterate"], own,
                               keys=[k for k in PEGASOS_KEYS if keys is None or k in keys])
    except ValueError:
        return None


# section (page slug, and .section where a page has several) → function of the link's query → {chart key: figure}
# or None
SECTIONS = {"feature-maps.cost": _cost, "feature-maps.taylor": _taylor, "circle": _circle,
            "primal-dual": _primal_dual, "mercer": _mercer, "regression.house": _house,
            "regression.logistic": _logistic, "pegasos": _pegasos}


def answer(slug, params, keys=None):
    """{chart key: the figure's JSON text as the chart element gets it} for the page `slug` at the link `params`,
    or None where the page draws no such figures; ValueError for a value the link cannot hold. keys: only these
    charts (those the student has on the screen); a section that makes some of its charts alone makes only these."""
    made = SECTIONS[slug](params, keys)
    if made is None:
        return None
    return {key: figure_json(fig)[0] for key, fig in made.items() if keys is None or key in keys}


async def _endpoint(request):
    slug = request.path_params["slug"]
    if slug not in SECTIONS:
        return JSONResponse({"error": f"no live figures for {slug!r}"}, status_code=404)
    if len(request.url.query) > MAX_QUERY:
        return JSONResponse({"error": f"the query is longer than {MAX_QUERY} characters"}, status_code=400)
    params = dict(request.query_params)
    keys = params.pop(CHARTS_PARAM, None)
    try:
        made = await run_in_threadpool(answer, slug, params, None if keys is None else set(keys.split(",")))
    except ValueError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    if made is None:
        return Response(status_code=204)
    # a line with the charts' keys, then each figure's JSON text on a line of its own, as the element gets it in a
    # message: it tells the rerun's figure from this one by comparing texts (figure JSON holds no newline)
    return Response("\n".join([json.dumps(list(made)), *made.values()]), media_type="application/x-ndjson")


def routes():
    """The routes serve.py adds to Streamlit's."""
    return [Route(f"/{ROUTE}/{{slug}}", _endpoint, methods=["GET"])]


def options(slug, *controls):
    """What the chart element needs to answer a move of the section's sliders `controls` by the route: put in the
    options of one chart of the section (page.boundary_chart(..., live=...)). Each control's list: the link's text of
    each of its positions (a select_slider's position is an index into them); None for a slider whose position is
    its value."""
    return {"route": f"{ROUTE}/{slug}", "controls": {key: _positions(FIELDS[key]) for key in controls}}


def _positions(field):
    return [encode(field, v) for v in field.choices] if field.kind == "choice" else None
