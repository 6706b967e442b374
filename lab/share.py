"""Share: the link of exactly this view, as text and as a QR code the room can scan, with the controls the
shared view should hide (?hide=, TensorFlow Playground's `*_hide`: a hidden control keeps its value from the link
but is not drawn, lab/widgets.py).

The link is the page's address and the current query string, which already holds every control that differs
from its default (lab/widgets.py writes them); only `hide` is chosen here. The QR code is made on the server
by segno (pure Python) as a PNG.
"""

import io
from urllib.parse import quote, urlencode

import segno
import streamlit as st

from lab.state import APP, FIELDS, SIDEBAR, hidden_keys
from lab.widgets import DRAWN, HIDDEN, plain

# when the browser's address is unknown (no browser: AppTest); a real session always has st.context.url
FALLBACK_BASE = "http://localhost:8501"


def share_link(base, path, params, hide=()):
    """The link of a view: `base` (the app's address), the page's `path`, the link parameters `params` (a dict:
    every non-default control) with `hide` (keys of controls to hide) in place of any hide they had."""
    query = {key: value for key, value in params.items() if key != "hide"}
    if hide:
        query["hide"] = ",".join(hide)
    address = base.rstrip("/") + "/" + path.strip("/")
    # commas, ~ and _ stay as they are: ?hide=pd_C,pd_gamma and the points' ~-separated list stay readable
    return address + ("?" + urlencode(query, safe=",~", quote_via=quote) if query else "")


def app_base(url, path):
    """The app's own address from the browser's address `url` of the page at `path` (st.context.url keeps the
    page's path in it on some servers and leaves it out on others)."""
    url = url.rstrip("/")
    suffix = "/" + path.strip("/")
    return url[:-len(suffix)] if path.strip("/") and url.endswith(suffix) else url


def view_link(path, hide=()):
    """The link of the view this session shows on the page at `path`: Share's link, and the address a Reproduce
    script names."""
    return share_link(app_base(st.context.url or FALLBACK_BASE, path), path, st.query_params.to_dict(), hide)


def qr_png(link, *, scale=6):
    """The link as a QR code, a PNG (dark modules on white with the standard 4-module quiet zone), error
    correction level M: readable from a projected screen across a room."""
    buffer = io.BytesIO()
    segno.make(link, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()


def read_hidden():
    """The controls this link hides, read on every run into session state for lab/widgets.py. Names that are
    no control are dropped from the link with a message; the rest stay hidden."""
    text = st.query_params.get("hide") or ""
    try:
        keys, unknown = hidden_keys(text)
    except ValueError as exc:
        keys, unknown = (), ()
        st.toast(str(exc), icon=":material/link_off:")
        del st.query_params["hide"]
    if unknown:
        # the names are the link's text, shown literally (widgets.plain): no markdown link or formula comes through
        st.toast(f"hide in the link names {plain(', '.join(unknown))}: no control has that name (a name is a "
                 "control's key in a link, such as pd_C or n), so it was left out.", icon=":material/link_off:")
        if keys:
            st.query_params["hide"] = ",".join(keys)
        else:
            del st.query_params["hide"]
    st.session_state[HIDDEN] = frozenset(keys)


def hideable(path):
    """key → label of the controls a shared link of the page at `path` (a lesson's slug) can hide: those drawn
    on it, in the sidebar and the view's own, and those this view already hides (labelled by their key). The page's
    own controls come first, the ones a lecturer hides most; each group in the schema's order."""
    drawn = st.session_state.get(DRAWN, {})
    owners = (path, SIDEBAR, APP)
    choices = {key: label for key, label in drawn.items() if FIELDS[key].page in owners}
    choices.update({key: key for key in st.session_state.get(HIDDEN, ()) if key not in choices})
    ordered = sorted((key for key in FIELDS if key in choices),
                     key=lambda key: owners.index(FIELDS[key].page) if FIELDS[key].page in owners else len(owners))
    return {key: choices[key] for key in ordered}


@st.dialog("Share this view", width="medium")
def dialog(path):
    """The link of this view, its QR code, and the controls the shared view hides."""
    choices = hideable(path)
    hide = st.multiselect("Hide these controls in the shared view (they keep their values)", list(choices),
                          default=[key for key in choices if key in st.session_state.get(HIDDEN, ())],
                          format_func=lambda key: f"{choices[key]} · {key}", key="share_hide",
                          placeholder="none: every control is shown")
    hide = [key for key in choices if key in hide]   # in the list's order, whatever the order of choosing
    link = view_link(path, hide)
    st.code(link, language=None, wrap_lines=True)
    st.image(qr_png(link), caption="Scan to open this view", width="content")


def button(path):
    """The Share button, which opens the dialog."""
    if st.button("Share this view", icon=":material/qr_code_2:", key="share", width="stretch",
                 help="The link of exactly this view, with a QR code, and controls to hide in it."):
        dialog(path)
