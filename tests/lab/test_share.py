"""Share and presenter mode without a browser: the link of a view, its QR code read back by a decoder, ?hide=
validated by the schema and applied to the controls, and presenter mode as a look the chart element applies
(the server sends the same figure)."""

import io

import pytest
import zxingcpp
from PIL import Image
from streamlit.testing.v1 import AppTest

from lab.share import app_base, qr_png, share_link
from lab.state import FIELDS, HIDE_MAX_LENGTH, hidden_keys
from pageutil import ROOT, chart_elements, chart_options, live_controls, move

LINK = "http://lab.example:8501/primal-dual?pd_C=10&n=60&pts=0.5_-0.25_1~-1_0_-1&hide=pd_C,n"


def test_the_link_is_the_page_and_every_parameter_with_the_chosen_hide():
    params = {"pd_C": "10", "n": "60", "hide": "seed"}
    assert share_link("http://host:8501/", "primal-dual", params, ("pd_C", "n")) == \
        "http://host:8501/primal-dual?pd_C=10&n=60&hide=pd_C,n"
    # nothing chosen: no hide, even when the view itself came from a link with one
    assert share_link("http://host:8501", "primal-dual", params) == "http://host:8501/primal-dual?pd_C=10&n=60"
    assert share_link("https://host/lab", "", {}) == "https://host/lab/"
    # a value with characters of its own in a URL is encoded, and reads back as itself
    link = share_link("http://h", "mercer", {"mc_formula": "exp(-g * norm(x - z)**2) & y=1"})
    assert link == "http://h/mercer?mc_formula=exp%28-g%20%2A%20norm%28x%20-%20z%29%2A%2A2%29%20%26%20y%3D1"


def test_the_app_address_is_the_browser_address_without_the_page_path():
    assert app_base("http://host:8501/primal-dual", "primal-dual") == "http://host:8501"
    assert app_base("http://host:8501", "primal-dual") == "http://host:8501"
    assert app_base("https://host/lab/mercer/", "mercer") == "https://host/lab"
    assert app_base("https://host/lab/", "") == "https://host/lab"
    assert app_base("http://host/notmercer", "mercer") == "http://host/notmercer"


def test_the_qr_code_reads_back_as_the_link():
    image = Image.open(io.BytesIO(qr_png(LINK)))
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [LINK]


def test_hide_names_controls_of_the_schema_and_says_which_names_are_none():
    assert hidden_keys("n, pd_C,,pd_gamma") == (("n", "pd_C", "pd_gamma"), ())
    assert hidden_keys("pd_C,C,hide,<script>") == (("pd_C",), ("<script>", "C", "hide"))
    assert hidden_keys("") == ((), ())
    assert hidden_keys(",".join(FIELDS))[1] == ("hide",)   # every control's key fits in one link
    with pytest.raises(ValueError, match="longer than"):
        hidden_keys("n," * HIDE_MAX_LENGTH)


def open_link(page, params):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def keys_drawn(at):
    return {w.key for kind in ("slider", "select_slider", "toggle") for w in at.get(kind)} | set(live_controls(at))


def test_a_hidden_control_is_not_drawn_and_keeps_its_value_from_the_link():
    shown = open_link("lessons/primal_dual/page.py", {"pd_C": "10", "n": "60"})
    hidden = open_link("lessons/primal_dual/page.py", {"pd_C": "10", "n": "60", "hide": "pd_C,n"})
    assert {"pd_C", "n"} <= keys_drawn(shown)
    assert not {"pd_C", "n"} & keys_drawn(hidden)
    assert "pd_hard" in keys_drawn(hidden)
    # the same view: the same figures, computed with C = 10 and n = 60
    assert [e.proto.bytes for e in chart_elements(hidden)] == [e.proto.bytes for e in chart_elements(shown)]
    assert hidden.query_params["pd_C"] == "10" and hidden.query_params["hide"] == "pd_C,n"
    # a move of another control reruns with the hidden values still in force and in the link
    move(hidden, "pd_offset", False)
    assert not hidden.exception
    assert hidden.query_params["pd_C"] == "10" and hidden.query_params["n"] == "60"
    assert not {"pd_C", "n"} & keys_drawn(hidden)


def test_an_unknown_name_in_hide_is_a_message_and_leaves_the_link():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["hide"] = "pd_C,gamma,__import__"
    at.run()
    assert not at.exception, at.exception
    assert any(r"\_\_import\_\_" in t.proto.body and "gamma" in t.proto.body for t in at.toast), \
        [t.proto.body for t in at.toast]
    assert at.query_params["hide"] == "pd_C"
    at.switch_page("lessons/primal_dual/page.py").run()
    assert not at.exception and "pd_C" not in keys_drawn(at) and "pd_hard" in keys_drawn(at)


def test_a_name_in_hide_is_shown_literally_never_as_markdown():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["hide"] = "[tap](https://evil.example),$x$"
    at.run()
    assert not at.exception, at.exception
    bodies = [t.proto.body for t in at.toast]
    assert any(r"\[tap\]\(https\:\/\/evil\.example\)" in b and r"\$x\$" in b for b in bodies), bodies
    assert "hide" not in at.query_params


def test_show_every_control_brings_the_hidden_controls_back():
    at = open_link("lessons/primal_dual/page.py", {"pd_C": "10", "hide": "pd_C"})
    at.button(key="show_hidden").click().run()
    assert "pd_C" in keys_drawn(at) and at.session_state["pd_C"] == 10.0
    assert "hide" not in at.query_params


def test_presenter_mode_sends_the_same_figures_with_a_look_option_and_folds_the_prose():
    plain = open_link("lessons/pegasos/page.py", {})
    present = open_link("lessons/pegasos/page.py", {"present": "true"})
    charts, present_charts = chart_elements(plain), chart_elements(present)
    assert len(charts) == len(present_charts) > 0
    for a, b in zip(charts, present_charts):
        assert a.proto.bytes.split(b"\n", 1)[1] == b.proto.bytes.split(b"\n", 1)[1]   # the same figure JSON
        assert chart_options(b) == {**chart_options(a), "present": True}
    assert not any(e.label == "The idea and the key formulas" for e in plain.main.expander)
    assert len([e for e in present.main.expander if e.label == "The idea and the key formulas"]) == 1


def test_presenter_mode_folds_the_key_formulas_with_the_prose():
    at = open_link("lessons/primal_dual/page.py", {"present": "true"})
    folded = [e for e in at.main.expander if e.label == "The idea and the key formulas"]
    assert len(folded) == 1 and len(folded[0].latex) == 2 and len(folded[0].markdown) == 1


def test_the_hide_list_offers_the_page_s_own_controls_before_the_sidebar_s():
    at = open_link("lessons/primal_dual/page.py", {})
    at.button(key="share").click().run()
    keys = [option.rsplit(" · ", 1)[1] for option in at.multiselect(key="share_hide").options]
    own = [key for key in keys if FIELDS[key].page == "primal-dual"]
    assert keys[:len(own)] == own and "n" in keys[len(own):]
    assert keys.index("pd_C") < 5   # the README's example is near the top


def test_a_bad_value_in_the_link_is_shown_literally_never_as_a_link_or_an_image():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"pd_C": "[Session expired: log in again](https://evil.example/login)",
                            "seed": "![x](https://evil.example/pixel.png)"})
    at.run()                                    # the sidebar's seed, on every page
    bodies = [t.proto.body for t in at.toast]
    assert any(r"\!\[x\]\(https\:\/\/evil\.example\/pixel\.png\)" in b for b in bodies), bodies
    at.switch_page("lessons/primal_dual/page.py").run()
    assert not at.exception, at.exception
    bodies += [t.proto.body for t in at.toast]
    assert any(r"\[Session expired\: log in again\]\(https\:\/\/evil\.example\/login\)" in b for b in bodies), bodies
    assert not any("](" in b for b in bodies), bodies
