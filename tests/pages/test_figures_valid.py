"""Every figure the pages draw is what Plotly's validation would have made of it.

The builders skip Plotly's property validation (figures.figure: it cost 20–60 ms per figure on every
slider move). Here each figure the pages draw — every page at its defaults and in its other modes —
goes through full validation instead: an unknown or misspelt property raises, and a value validation
would have rewritten (a shorthand, a magic underscore, a string title Plotly.js 3 no longer reads)
shows up as a difference between what was sent and what validation makes of it."""

import json

import plotly.graph_objects as go
import pytest

from pageutil import figures, lesson_pages, open_page, until_drawn

# every lesson at its defaults, and the other modes of some
CASES = [(page, {}, None) for page in lesson_pages()] + [
    ("lessons/feature_maps/page.py", {"fm_map": "cubic_1d"}, None),
    ("lessons/circle/page.py", {"cl_lift": "paraboloid", "cl_hard": True}, None),
    ("lessons/primal_dual/page.py", {"pd_space": "kernel", "pd_offset": False}, None),
    # the validation heatmap and its curves; one-vs-rest on three classes, with a class-2 point of the student's
    ("lessons/primal_dual/page.py", {"pd_space": "kernel", "pd_cv": True}, None),
    ("lessons/primal_dual/page.py", {"pd_space": "kernel"}, {"dataset": "blobs3", "user_points": ((0.25, 0.5, 2),)}),
    # the student's points, drawn as their own trace
    ("lessons/primal_dual/page.py", {}, {"user_points": ((0.25, 0.5, 1), (-0.5, 0.75, -1))}),
    ("lessons/mercer/page.py", {}, {"mc_tab": "Closure rules"}),
    ("lessons/mercer/page.py", {}, {"mc_tab": "Kernels that fail"}),
    ("lessons/mercer/page.py", {}, {"mc_tab": "Your formula"}),
]


def meaningful(spec):
    """spec without the None values and empty containers validation drops (they mean 'not set')."""
    if isinstance(spec, dict):
        out = {k: meaningful(v) for k, v in spec.items()}
        return {k: v for k, v in out.items() if v is not None and v != {} and v != []}
    if isinstance(spec, list):
        return [meaningful(v) for v in spec]
    return spec


@pytest.mark.parametrize("page, widgets, state", CASES, ids=[f"{p.split('/')[-1][:-3]}-{w or s or 'default'}"
                                                            for p, w, s in CASES])
def test_every_figure_is_what_validation_would_make_of_it(page, widgets, state):
    at = open_page(page, widgets=widgets, state=state)
    if widgets.get("pd_cv"):
        until_drawn(at, "pd_cv_heatmap")
    specs = figures(at)
    assert specs
    for text in specs:
        sent = json.loads(text)
        validated = json.loads(go.Figure(sent).to_json())   # raises on an invalid property
        assert meaningful(sent) == meaningful(validated)


def test_an_animated_decision_figure_is_valid_frames_included():
    import numpy as np
    import plotly.io as pio

    from figures.boundary import boundary_frames, decision_figure

    xs = ys = np.linspace(-2.0, 2.0, 40)
    grids = [np.add.outer(ys ** 2, xs ** 2) - r ** 2 for r in (0.5, 1.0, 1.5)]
    fig = decision_figure(xs, ys, grids[-1], np.zeros((1, 2)), np.ones(1), own=[(0.5, 0.5, -1)],
                          frames=boundary_frames(xs, ys, grids, ["a", "b", "c"]))
    sent = json.loads(pio.to_json(fig.to_dict(), validate=False))
    validated = json.loads(go.Figure(sent).to_json())
    assert meaningful(sent) == meaningful(validated)


def test_the_check_catches_what_validation_would_rewrite():
    # a string axis title, which validation rewrites to {"text": ...} (Plotly.js 3 reads only that form)
    sent = {"data": [{"type": "scatter", "x": [1, 2]}], "layout": {"xaxis": {"title": "x"}}}
    assert meaningful(sent) != meaningful(json.loads(go.Figure(sent).to_json()))
    # figure() writes it the way validation would
    from figures import figure
    made = json.loads(figure(sent["data"], layout=sent["layout"]).to_json())
    assert made["layout"]["xaxis"]["title"] == {"text": "x"}
    with pytest.raises(ValueError):
        go.Figure(json.loads(figure([dict(type="scatter", x=[1], colour="red")], layout={}).to_json()))


@pytest.mark.parametrize("array", [
    [0.5, -1.25, 3.0], [[1.0, 2.0], [3.0, 4.0]], [1, 2, 3], [100_000, -7], [2 ** 40, 1], [True, False], [],
], ids=["float", "2-d", "int8", "int32", "int64", "bool", "empty"])
@pytest.mark.parametrize("dtype", [None, "float32"])
def test_typed_arrays_write_what_plotlys_to_dict_writes(array, dtype):
    import numpy as np
    from _plotly_utils.utils import to_typed_array_spec

    from figures import typed_arrays

    a = np.array(array, dtype=dtype if dtype and np.asarray(array).dtype.kind == "f" else None)
    theirs = to_typed_array_spec(a.copy())
    assert typed_arrays({"x": a}) == {"x": theirs.tolist() if isinstance(theirs, np.ndarray) else theirs}
