"""Accessibility: on every page each control has a label of its own (a screen reader or speech control names a
control by its label, so two alike cannot be told apart); one colour-blind-safe palette, and every class told apart by
marker shape too, the same on every page; every chart carries a text alternative made from its figure."""

import json
import re
from collections import Counter

import numpy as np
import pytest

import datasets
from figures import describe, palette
from figures.boundary import CLASS_LABELS, OWN_POINTS, decision_figure
from lab.state import FIELDS
from lessons import registry
from pageutil import ROOT, chart_elements, chart_options, figures, lesson_pages, open_page

KERNEL_KEYS = [k for k in FIELDS if k.endswith("_kernel")]
TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", "Your formula"]
# every kernel chooser on polynomial (it shows γ, d and r), lesson 3 in kernel space (it shows its chooser)
ALL_KERNEL_CONTROLS = {**{k: "poly" for k in KERNEL_KEYS}, "pd_space": "kernel"}
VIEWS = [(page, {}) for page in lesson_pages()] + [(page, ALL_KERNEL_CONTROLS) for page in lesson_pages()] + [
    ("lessons/mercer/page.py", {"mc_tab": tab, "mc_rule": rule}) for tab in TABS for rule in ("sum", "polynomial")] + [
    ("lessons/feature_maps/page.py", {"fm_source": "data"})]


def control_labels(at):
    """The label of every control drawn on the page, the sidebar's included."""
    def walk(node):
        yield node
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                yield from walk(child)
    return [n.proto.label for n in walk(at._tree)
            if getattr(n, "proto", None) is not None and hasattr(n.proto, "label") and getattr(n.proto, "id", "")]


@pytest.mark.parametrize("page, state", VIEWS)
def test_no_two_controls_on_a_page_share_a_label(page, state):
    at = open_page(page, state=state)
    labels = control_labels(at)
    assert len(labels) > 5, labels
    assert [label for label, count in Counter(labels).items() if count > 1] == []


# Okabe & Ito (2008), "Color Universal Design": the eight colours' published RGB values
OKABE_ITO_RGB = {(0, 0, 0), (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178), (213, 94, 0),
                 (204, 121, 167)}
COLOUR_LITERAL = re.compile(r"""["']#[0-9a-fA-F]{3,8}["']|rgba?\(""")


def rgb(hex_colour):
    return tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))


def test_the_palette_is_okabe_ito_and_each_class_takes_one_of_its_colours():
    assert {rgb(c) for c in palette.OKABE_ITO.values()} == OKABE_ITO_RGB
    assert {rgb(c) for c in palette.CLASS_COLORS.values()} <= OKABE_ITO_RGB
    # classes −1 and +1, and the third class of lesson 3's one-vs-rest: each its own colour and shape
    assert sorted(palette.CLASS_COLORS) == [-1, 1, 2] and len(set(palette.CLASS_COLORS.values())) == 3
    assert len(set(palette.CLASS_SYMBOLS.values())) == 3 and len(set(palette.OWN_SYMBOLS.values())) == 3


# Machado, Oliveira & Fernandes (2009): full-severity protanopia, deuteranopia and tritanopia on linear RGB
CVD = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.148602], [0.004733, 0.691367, 0.303900]],
}
SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])


def lab(linear_rgb):
    """CIE L*a*b* (D65) of a linear-RGB colour."""
    xyz = SRGB_TO_XYZ @ linear_rgb / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def linear(hex_colour):
    c = np.array(rgb(hex_colour)) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


@pytest.mark.parametrize("deficiency", CVD)
def test_the_two_class_colours_stay_far_apart_for_each_colour_vision_deficiency(deficiency):
    seen = [lab(np.clip(np.array(CVD[deficiency]) @ linear(palette.CLASS_COLORS[k]), 0, 1)) for k in (-1, 1)]
    # ΔE*ab above ~10 is an obvious difference at a glance; Okabe–Ito's blue and vermillion stay far above it
    assert np.linalg.norm(seen[0] - seen[1]) > 30


def test_no_figure_or_page_module_names_a_colour_of_its_own():
    sources = ([p for p in (ROOT / "figures").glob("*.py") if p.name != "palette.py"]
               + list((ROOT / "lessons").glob("*.py")))
    found = {p.name: COLOUR_LITERAL.findall(p.read_text()) for p in sources}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_classes_differ_in_marker_shape_and_own_points_in_shape_from_generated_ones():
    assert len(set(palette.CLASS_SYMBOLS.values())) == len(palette.CLASS_SYMBOLS)
    assert len(set(palette.OWN_SYMBOLS.values())) == len(palette.OWN_SYMBOLS)
    assert not set(palette.OWN_SYMBOLS.values()) & set(palette.CLASS_SYMBOLS.values())
    assert len(set(palette.CLASS_PATTERNS.values())) == 2


OWN = ((0.5, 0.5, 1), (-0.5, 0.25, -1))


# every page that draws classes (lesson 1 draws 1-D curves only); lesson 5 in the tabs that draw points
CLASS_VIEWS = [(lesson.script, {}) for lesson in registry.LESSONS
               if lesson.slug in ("circle", "primal-dual", "pegasos", "regression")] + [
    ("lessons/mercer/page.py", {"mc_tab": "Your formula"}), ("lessons/mercer/page.py", {"mc_tab": "Kernels that fail"})]


@pytest.mark.parametrize("page, state", CLASS_VIEWS)
def test_every_chart_draws_each_class_in_its_colour_and_shape_on_every_page(page, state):
    at = open_page(page, state={"user_points": OWN, **state})
    by_label = {label: k for k, label in CLASS_LABELS.items()}
    seen = set()
    for spec in map(json.loads, figures(at)):
        for trace in spec["data"]:
            marker = trace.get("marker", {})
            if trace.get("name") in by_label:
                k = by_label[trace["name"]]
                assert marker["color"] == palette.CLASS_COLORS[k], trace["name"]
                if trace["type"] == "bar":
                    assert marker["pattern"]["shape"] == palette.CLASS_PATTERNS[k]
                else:
                    assert marker["symbol"] == palette.CLASS_SYMBOLS[k]
                seen.add(trace["type"])
            elif str(trace.get("name")).split(", ")[-1] in by_label:   # coloured by something else (lesson 5's c)
                assert marker["symbol"] == palette.CLASS_SYMBOLS[by_label[trace["name"].split(", ")[-1]]]
                seen.add("shape")
            elif trace.get("name") == OWN_POINTS:
                assert marker["symbol"] == [palette.OWN_SYMBOLS[p[2]] for p in OWN]
                assert marker["color"] == [palette.CLASS_COLORS[p[2]] for p in OWN]
                seen.add("own")
    assert seen, "no class drawn on this page"


# ---------------------------------------------------------------- text alternatives of the charts


def test_a_decision_figures_text_alternative_names_its_axes_and_counts_each_class():
    X, y = datasets.DATASETS["moons"](37, noise=0.1, random_state=3)
    xs = ys = np.linspace(-2, 2, 5)
    spec = decision_figure(xs, ys, np.add.outer(ys, xs), X, y, own=OWN).to_dict()
    text = describe(spec)
    assert "Horizontal axis x₁, vertical axis x₂." in text
    assert f"y = −1 ({np.sum(y == -1)} points)" in text and f"y = +1 ({np.sum(y == 1)} points)" in text
    assert f"{OWN_POINTS} ({len(OWN)} points)" in text
    assert "f(x) (colour map)" in text


@pytest.mark.parametrize("page, state", [(page, {}) for page in lesson_pages()] + [
    ("lessons/mercer/page.py", {"mc_tab": tab}) for tab in TABS[1:]])
def test_every_chart_carries_a_text_alternative_naming_what_it_draws_and_a_name_of_its_own(page, state):
    at = open_page(page, state=state)
    names = []
    for element in chart_elements(at):
        options = chart_options(element)
        spec = json.loads(element.proto.bytes.split(b"\n", 1)[1])
        assert options["label"].startswith(options["name"]), options
        for trace in spec["data"]:
            if trace.get("name"):
                assert trace["name"] in options["label"], (trace["name"], options["label"])
        names.append(options["name"])
    assert names and len(set(names)) == len(names), names


def test_a_chart_replayed_by_anothers_player_says_so_and_names_no_buttons_of_its_own():
    at = open_page("lessons/primal_dual/page.py")
    labels = {chart_options(e)["file"]: chart_options(e)["label"] for e in chart_elements(at)}
    assert "replayed in step with the Play, Step and Reset of the chart beside it" in labels["pd_alpha"]
    assert "replay them" not in labels["pd_alpha"]
