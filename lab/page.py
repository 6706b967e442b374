"""The shape every lesson page shares, and its recurring pieces.

A page reads top to bottom in five steps: `header` (title, a few sentences and the key formula);
`params = controls()` built from lab/widgets.py; `result = compute(...)` through a memoized call of the
lesson's compute module; the figures (`chart`, `boundary_chart`); and an expander with the numbers and the code
(`code`, built only while it is open).
A section whose controls should rerun only itself is a `fragment`; its heading and fixed prose (`section`) are written
before the fragment is called, outside it: a fragment's rerun sends every element in it again and the browser renders
each anew (markdown parsed, formulas typeset), whether or not it changed.
A page's head and each section are containers with keys of their own (HEAD, SLIDE), so that presenter mode and a phone
can show each section as a slide (lab/present.py): its title, one sentence and its worked examples, then its figures.
"""

import contextlib
import functools
from typing import NoReturn

import numpy as np
import pyarrow as pa
import streamlit as st

from lab import background, live, live_chart, present, presets, share, sidebar
from lab.section import POINTS
from lab.state import FIELDS

_RERUN_APP = "_rerun_app"
# the key prefixes of a section's container (a slide) and of the head of a section or of the page (lab/present.py)
SLIDE = "kl_slide_"
HEAD = "kl_head_"
# the key of the page's row of worked examples
PRESETS_KEY = "kl_presets"
# the url path of the page this session shows, set by app.py on every run (a fragment rerun keeps it)
VIEW_PATH = "_view_path"


def session_owner():
    """This session as lab/background.py's Owner: its state, its id and whether it is still connected
    (live.this_session), so that the queued job of a closed tab is dropped before it runs."""
    return background.Owner(st.session_state, *live.this_session())


def presenting():
    """Presenter mode (the sidebar's toggle, ?present=true): figures large and first, the prose folded away."""
    return bool(st.session_state.get("present"))


def compact():
    """Presenter mode or a phone: the prose folded, tables and code fitted to the width instead of scrolling."""
    return presenting() or present.narrow()


def header(title, text, *formulas):
    """The page's title, its few sentences and its key formulas, in the page's head. In presenter mode and on a phone
    only the first sentence stays under the title; the rest and the formulas are folded into an expander after it, which
    lab/present.py puts at the end of the page, so that a figure follows the title."""
    with st.container(key=f"{HEAD}page"):
        st.title(title)
        rest = _prose(text, formulas)
    _folded(rest, formulas, "The idea and the key formulas")


def first_sentence(text):
    """(text's first sentence, the rest): it ends at a full stop, question or exclamation mark followed by a space,
    outside $…$ math."""
    math = False
    for k, ch in enumerate(text):
        if ch == "$" and text[k - 1:k] != "\\":
            math = not math
        elif ch in ".?!" and not math and text[k + 1:k + 2].isspace():
            return text[:k + 1], text[k + 1:].strip()
    return text, ""


def _prose(text, formulas):
    """The text and the formulas; when `compact()`, only the text's first sentence: returns the rest of the text, for
    `_folded`."""
    if compact():
        lead, rest = first_sentence(text or "")
        if lead:
            st.markdown(lead)
        return rest
    if text:
        st.markdown(text)
    for formula in formulas:
        st.latex(formula)
    return ""


def _folded(rest, formulas, label):
    """When `compact()`, what `_prose` left out (the rest of the text, the formulas) in an expander."""
    if compact() and (rest or formulas):
        with st.expander(label):
            if rest:
                st.markdown(rest)
            for formula in formulas:
                st.latex(formula)


@contextlib.contextmanager
def section(title, text=None, *formulas, key, examples=(), divider=False):
    """A section of the page: `with page.section(...): its_fragment()`. Its head (a rule above it with `divider`, its
    heading, its fixed prose and formulas) is written outside the fragment: what a fragment draws is drawn again by the
    browser on every move of its controls (docs/PERFORMANCE.md). All of it sits in a container of its own (`key`: the
    section's name), a slide in presenter mode and on a phone (lab/present.py): there the head shows the text's first
    sentence and the worked examples of `examples` that name this section (Preset.section), and the rest of the text
    and the formulas are folded into an expander at the end of the section."""
    with st.container(key=f"{SLIDE}{key}"):
        with st.container(key=f"{HEAD}{key}"):
            if divider:
                st.divider()
            st.subheader(title)
            rest = _prose(text, formulas)
            if compact():
                _examples_row([p for p in examples if p.section == key], f"kl_examples_{key}")
        yield
        _folded(rest, formulas, "The rest of the text and the formulas")


def _apply(preset):
    """A preset button's callback: its values into the session state; the rerun draws them and links them."""
    st.session_state.update(preset.values)
    if preset.tab:
        st.session_state[presets.TAB_KEY] = preset.tab


def presets_row(examples):
    """The page's worked examples (lab/presets.py) as a row of buttons under the header; each one's help names
    its source, what to expect and its link. In presenter mode and on a phone, an example of a section is in that
    section's head instead (`section`)."""
    _examples_row([p for p in examples if not (p.section and compact())], PRESETS_KEY)


def _examples_row(examples, key):
    if not examples:
        return
    with st.container(horizontal=True, gap="small", vertical_alignment="center", key=key):
        st.markdown("**The notes' examples:**", width="content")
        for p in examples:
            st.button(p.name, key=f"preset_{p.key}", on_click=_apply, args=(p,), icon=":material/school:",
                      help=f"{p.source}. {p.expect}  \nLink: `{p.link()}`")


def fragment(body):
    """st.fragment: a control moved inside reruns only this section, not the sidebar. When a callback changed
    something outside it (lesson 5's buttons that fill the formula box and open its tab: request_app_rerun), it hands
    over to a whole-app rerun."""
    @st.fragment
    @functools.wraps(body)
    def run(*args, **kwargs):
        if st.session_state.pop(_RERUN_APP, False):
            st.rerun(scope="app")
        return body(*args, **kwargs)
    return run


def request_app_rerun():
    """From a widget callback inside a fragment: the next run is the whole app (see `fragment`)."""
    st.session_state[_RERUN_APP] = True


def values(section):
    """The values the section's controls hold in this session (each field's default where a control is not drawn),
    with the student's points: what its route reads from the page's link."""
    state = st.session_state
    return {**{key: state[key] if key in state else FIELDS[key].default for key in section.keys},
            POINTS: sidebar.user_points()}


def run(section, *, section_only=False):
    """(setup, data, status) of the section at this session's values (lab/section.py), its controls drawn; where
    the core refuses the data, its message is shown and the page stops (section_only: None is returned instead)."""
    try:
        return section.run(values(section))
    except ValueError as exc:
        if not section_only:
            stop(exc)
        show_error(exc)


def show_error(exc):
    """Show a core ValueError as a message a student can act on; the rest of the page still renders."""
    st.error(str(exc), icon=":material/error:")


def stop(exc) -> NoReturn:
    """Show a core ValueError as a message a student can act on, and end the page (or its fragment) there."""
    show_error(exc)
    st.stop()


def warnings(messages, prefix=""):
    """Each solver warning as a visible box."""
    for message in messages:
        st.warning(prefix + message, icon=":material/warning:")


def metric_row():
    """A row for metrics drawn with width="content": each as wide as its value, spread over the row, wrapping on
    a narrow screen. (st.columns gives each a fixed share and cuts a long value such as 3.73478e-13 to "3.7347…".)"""
    return st.container(horizontal=True, horizontal_alignment="distribute", gap="medium")


def metrics(values, help=None):
    """A metric_row of label → value, with optional help texts by label."""
    with metric_row():
        for label, value in values.items():
            st.metric(label, value, help=(help or {}).get(label), width="content")



def table(columns, **kwargs):
    """st.dataframe of a dict of columns, sent as a pyarrow Table without an index column: Streamlit then
    skips pandas (a cost on every rerun, docs/PERFORMANCE.md). Name a column for the row number if it matters.
    When `compact()`, a table whose cells wrap within the width instead (`fitted_table`)."""
    if compact():
        return fitted_table(columns, kwargs.get("column_config") or {}, kwargs.get("height"))
    return st.dataframe(pa.table(columns), hide_index=True, **kwargs)


def _cell(value, fmt):
    """One cell's text: a number in the column's printf-style format, else as Python writes it."""
    if isinstance(value, (float, np.floating)):
        return fmt % value if fmt else f"{value:.6g}"
    return str(value)


def fitted_table(columns, column_config, height=None):
    """A static table (st.table) whose cells wrap (CSS in lab/present.py), so it never scrolls sideways: the
    data grid of st.dataframe scrolls its columns sideways when they do not fit. Numbers are written with the
    columns' NumberColumn formats; `height`: the table scrolls down within it."""
    text = {name: [_cell(v, (column_config.get(name) or {}).get("type_config", {}).get("format"))
                   for v in np.asarray(values).tolist()] for name, values in columns.items()}
    st.table(pa.table(text), hide_index=True, height=height or "content")


def chart(fig, key, name=None, replay_with=None):
    """Draw a figure, updated in place on later reruns (lab/live_chart.py); name: see live_chart.chart; replay_with:
    the key of the chart whose player replays this figure's frames with its own, in step."""
    live_chart.chart(fig, key=key, name=name, present=presenting(), follow=replay_with)


def _apply_event(event):
    """A chart event applied to the student's points, then the whole app reruns: the sidebar's count and
    every page's data change, also when the chart sits in a fragment."""
    if event.op == "add":
        sidebar.add_point(event.x, event.y, event.label)
    elif event.op == "move":
        sidebar.move_point(event.index, event.x, event.y)
    else:
        sidebar.remove_point(event.index)
    st.rerun(scope="app")


def boundary_chart(fig, key, name=None, section=None):
    """Draw a decision-boundary figure in place: a click adds a point of the sidebar's class where it lands
    (shift-click: the other class), dragging one of the student's points moves it, a double-click removes it.
    The figure draws the student's points itself (decision_figure(..., own=data.own_points()), memoized with it).
    section: its live section (lab/section.py), whose route draws a click, drag or delete before the rerun."""
    live_chart.boundary_chart(fig, key=key, own=sidebar.user_points(), name=name,
                              new_class=int(st.session_state.get("new_class") or 1), on_event=_apply_event,
                              present=presenting(), route=section and live.route(section))


def cell_chart(fig, key, shape, on_cell):
    """Draw a heatmap whose cells are choices in place: a click on a cell runs on_cell(row, column) before the
    rerun (lab/live_chart.py, mode "cells")."""
    live_chart.cell_chart(fig, key=key, shape=shape, on_cell=on_cell, present=presenting())


def code(key, title, source, text=None, columns=None, table_key=None, **table_kwargs):
    """The expander with the numbers (text: markdown; columns: a table, see `table`) and the core function's source.
    Lazy, as `reproduce` is: its content is built and sent only while a student has it open (`key`: its state), so a
    slider move does not redraw a table and a highlighted listing nobody is looking at (the browser pays for a data
    grid on every slider move). table_key: the table's own key."""
    with st.expander(title, key=key, on_change="rerun") as box:
        if box.open:
            if text:
                st.markdown(text)
            if columns is not None:
                table(columns, key=table_key, **table_kwargs)
            st.code(source, language="python", wrap_lines=compact())


def link():
    """This view's link, as Share makes it (lab/share.py): the page's address with every setting that differs
    from its default and the student's points (?pts=). Opening it restores the whole scene."""
    return share.view_link(st.session_state.get(VIEW_PATH, ""))


def reproduce(key, what, make, *args):
    """An expander with the code that recomputes this section's numbers (`what`: named in its label, so that no two
    controls of a page share one): make(link(), *args) from lab/reproduce.py. Lazy: nothing is built or sent
    until a student opens it."""
    with st.expander(f"Reproduce in Python: {what}", key=key, on_change="rerun", icon=":material/terminal:") as box:
        if box.open:
            st.caption("Copy it with the button at its top right. It carries the exact points and settings of this "
                       "view and prints the numbers shown above, computed with scikit-learn and the lab's kernel_core.")
            st.code(make(link(), *args), language="python", height=480)
