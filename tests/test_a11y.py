"""Accessibility: on every page each control has a label of its own (a screen reader or speech control names a
control by its label, so two alike cannot be told apart)."""

from collections import Counter

import pytest

from lessons.state import FIELDS
from pageutil import lesson_pages, open_page

KERNEL_KEYS = [k for k in FIELDS if k.endswith("_kernel")]
TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", "Your formula"]
# every kernel chooser on polynomial (it shows γ, d and r), lesson 3 in kernel space (it shows its chooser)
ALL_KERNEL_CONTROLS = {**{k: "poly" for k in KERNEL_KEYS}, "pd_space": "kernel"}
VIEWS = [(page, {}) for page in lesson_pages()] + [(page, ALL_KERNEL_CONTROLS) for page in lesson_pages()] + [
    ("lessons/5_mercer.py", {"mc_tab": tab, "mc_rule": rule}) for tab in TABS for rule in ("sum", "polynomial")] + [
    ("lessons/1_feature_maps.py", {"fm_source": "data"})]


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
