"""Live figures: a move of a section's slider answered by a route of the server before its rerun.

A slider move reruns its section (a Streamlit fragment), and the browser renders every element of the page again on
each commit of that rerun (docs/PERFORMANCE.md): the figures came last. So every live section (lab/section.py) also
has a route: the moment one of its sliders takes a new value, the chart element (lab/live_chart_web/live_chart.js)
asks GET <base>/live/<section>?<the page's link, with the slider's new value>&_charts=<the charts on the student's
screen> and draws the figures it answers in place; the rerun then brings the same figures (the element draws a
figure only when its JSON changed) and everything else: numbers, tables, the link.

The route runs the section's own declaration with the link's values, read as a shared link is read
(lab/state.py): a value the link cannot hold is refused with 400 and its reason, and the rerun alone then draws what
the page makes of it; where the page draws no such figures (a setting the core refuses, a solver that stopped short,
another branch) it answers 204. The routes honour server.baseUrlPath. Served without them (`streamlit run app.py`,
AppTest), the element gets Streamlit's HTML page instead of this route's content type and leaves every move to the
rerun.

serve.py, the app's main file, serves app.py with these routes (Streamlit's st.App), built from the registry.
"""

import json

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from streamlit import config

from lab import points
from lab.live_chart import figure_json
from lab.state import FIELDS, encode

ROUTE = "live"
# the route's own content type: the element takes any other answer (an HTML page) for "no routes here"
CONTENT_TYPE = "application/x-ndjson"
# the query's list of the charts to answer (comma-separated keys); not a field of the link
CHARTS_PARAM = "_charts"
# the longest query a route reads: every field of the schema and MAX_USER_POINTS points fit
MAX_QUERY = 16_000


def answer(section, params, charts=None):
    """{chart key: the figure's JSON text as the chart element gets it} for `section` at the link `params`, or None
    where the page draws no such figures; ValueError for a value the link cannot hold. charts: only these (those the
    student has on the screen)."""
    values = section.link_values(params, points.decode(params.get("pts", "")))
    try:
        setup, data, status = section.run(values)
        if status is not None:
            return None
        made = section.figures(setup, data, charts)
    except ValueError:
        return None       # the page shows the core's message
    return {key: figure_json(fig)[0] for key, fig in made.items() if charts is None or key in charts}


def routes(sections):
    """The routes serve.py adds to Streamlit's: GET <server.baseUrlPath>/live/<name> for each of `sections`."""
    by_name = {section.name: section for section in sections}

    async def endpoint(request):
        base = config.get_option("server.baseUrlPath").strip("/")
        name = request.path_params["name"]
        if request.path_params.get("base", "") != base or name not in by_name:
            return JSONResponse({"error": f"no live figures at {request.url.path}"}, status_code=404)
        if len(request.url.query) > MAX_QUERY:
            return JSONResponse({"error": f"the query is longer than {MAX_QUERY} characters"}, status_code=400)
        params = dict(request.query_params)
        keys = params.pop(CHARTS_PARAM, None)
        try:
            made = await run_in_threadpool(answer, by_name[name], params,
                                           None if keys is None else set(keys.split(",")))
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        if made is None:
            return Response(status_code=204)
        # a line with the charts' keys, then each figure's JSON text on a line of its own, as the element gets it in
        # a message: it tells the rerun's figure from this one by comparing texts (figure JSON holds no newline)
        return Response("\n".join([json.dumps(list(made)), *made.values()]), media_type=CONTENT_TYPE)

    # at the root, and under a base path (read when a request comes: the option is set after this module is loaded)
    return [Route(f"/{ROUTE}/{{name}}", endpoint, methods=["GET"]),
            Route(f"/{{base:path}}/{ROUTE}/{{name}}", endpoint, methods=["GET"])]


def options(section):
    """What the chart element needs to answer a move of the section's live sliders by its route: put in the options
    of one chart of the section (page.boundary_chart(..., live=...)). Each control's list: the link's text of each of
    its positions (a select_slider's position is an index into them); None for a slider whose position is its
    value."""
    return {"route": f"{ROUTE}/{section.name}", "controls": {key: _positions(FIELDS[key]) for key in section.live}}


def _positions(field):
    return [encode(field, v) for v in field.choices] if field.kind == "choice" else None
