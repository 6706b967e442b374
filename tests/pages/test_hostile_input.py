"""Bad input anywhere is a clear message and nothing is lost: uploaded CSV files of every kind of wrong,
points piled on top of each other in every solver, junk in the URL's points, and a student's points
surviving a page switch, a reload and a shared link. (The formula box's hostile corpus is in
test_formula.py and test_page_mercer.py.)"""

import io
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

import datasets
from datasets.upload import DECIMALS, MAX_ABS_COORD, read_points_csv
from kernel_core.formula import MAX_LENGTH
from kernel_core.kernels import rbf_kernel
from kernel_core.mercer import check_psd
from kernel_core.pegasos import KernelPegasos
from kernel_core.perceptron import KernelPerceptron
from kernel_core.logistic import KernelLogisticRegression
from kernel_core.svm import DualSVM, PrimalSVM
from figures.boundary import GRID_POINTS
from lab.state import MAX_USER_POINTS, N_MAX
from pageutil import figures, lesson_pages, live_controls

ROOT = Path(__file__).resolve().parents[2]
PAGES = lesson_pages()
MAX_ROWS = MAX_USER_POINTS
MAX_BYTES = 1 << 20
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def read(data, *, max_rows=MAX_ROWS, max_bytes=MAX_BYTES):
    return read_points_csv(data, max_rows=max_rows, max_bytes=max_bytes)


def refusal(data, **limits):
    with pytest.raises(ValueError) as info:
        read(data, **limits)
    return str(info.value)


# ---------------------------------------------------------------- the CSV parser, one class of bad input at a time

def test_a_plain_file_with_a_header_gives_its_points():
    got = read(b"x1,x2,y\n0.5,-1.25,1\n-2,3,-1\n")
    assert got.points == ((0.5, -1.25, 1), (-2.0, 3.0, -1)) and got.header and not got.labels_01


def test_the_header_is_optional_and_forgives_case_and_spaces():
    assert read(b"0.5,1,1\n").points == ((0.5, 1.0, 1),)
    assert read(b" X1 , X2 ,Y\r\n0.5 , 1 , -1\r\n").points == ((0.5, 1.0, -1),)


@pytest.mark.parametrize("header, found", [("a,b,label", "'a', 'b', 'label'"), ("x,y,class", "'x', 'y', 'class'"),
                                           ("x1,x2", "'x1', 'x2'"), ("x1,x2,y,z", "'x1', 'x2', 'y', 'z'")])
def test_a_wrong_header_is_refused_saying_what_was_found(header, found):
    message = refusal(f"{header}\n1,2,1\n".encode())
    assert found in message and "must be exactly x1,x2,y" in message


@pytest.mark.parametrize("line, count", [("1,2", 2), ("1,2,1,4", 4), ("1", 1)])
def test_a_row_without_three_fields_is_refused_with_its_line_number(line, count):
    message = refusal(f"1,1,1\n\n{line}\n".encode())
    assert f"Line 3 has {count} field(s)" in message


@pytest.mark.parametrize("line", ["1;2;1", "1\t2\t1", "1 2 1"])
def test_other_separators_get_a_hint_to_use_commas(line):
    assert "Separate the numbers with commas" in refusal(line.encode())


@pytest.mark.parametrize("field", ["abc", "1_000", "0x10", "1e5e5", "1.2.3", "'1'", "__import__('os')",
                                   "\uff11", "\u0661", "1\u20072"])
def test_text_or_look_alike_digits_in_a_number_field_are_refused(field):
    message = refusal(f"0,0,1\n{field},1,1\n".encode())
    assert message.startswith("Line 2: x1 is") and "not a number" in message


def test_a_unicode_minus_gets_a_hint():
    assert "ASCII '-'" in refusal("\u22121,1,1".encode())


@pytest.mark.parametrize("field", ["nan", "NaN", "inf", "-Infinity", "+inf"])
def test_nan_and_infinity_are_refused_as_not_finite(field):
    assert f"x2 is {field!r}, not a finite number" in refusal(f"1,{field},1".encode())


@pytest.mark.parametrize("field", ["1e999", "-1e309"])
def test_numbers_that_overflow_are_refused(field):
    assert "too large to be a finite number" in refusal(f"{field},1,1".encode())


def test_an_empty_field_is_refused():
    assert "x2 is empty" in refusal(b"1,,1")


@pytest.mark.parametrize("x", [10.01, -250.0, 1e6])
def test_coordinates_outside_the_window_are_refused(x):
    message = refusal(f"0,{x!r},1".encode())
    assert f"x2 = {x:g} is outside [-{MAX_ABS_COORD:g}, {MAX_ABS_COORD:g}]" in message


def test_coordinates_on_the_window_edge_are_accepted():
    assert read(f"{MAX_ABS_COORD},{-MAX_ABS_COORD},1".encode()).points == ((MAX_ABS_COORD, -MAX_ABS_COORD, 1),)


@pytest.mark.parametrize("label", ["0.5", "-2", "1.5", "+3", "2.5"])
def test_labels_other_than_plus_minus_one_or_two_are_refused(label):
    assert f"the label y = {label} must be -1 or +1" in refusal(f"1,1,{label}".encode())


def test_the_third_class_is_read_with_minus_one_plus_one_but_not_with_zero_one():
    assert read(b"0,0,-1\n1,1,1\n2,2,2\n").points == ((0.0, 0.0, -1), (1.0, 1.0, 1), (2.0, 2.0, 2))
    assert "The labels mix 0, +1, +2" in refusal(b"0,0,0\n1,1,1\n2,2,2\n")


def test_zero_one_labels_are_read_as_minus_one_plus_one_and_flagged():
    got = read(b"0,0,0\n1,1,1\n2,2,0\n")
    assert got.labels_01 and got.points == ((0.0, 0.0, -1), (1.0, 1.0, 1), (2.0, 2.0, -1))


def test_labels_mixing_zero_and_minus_one_are_refused():
    assert "The labels mix -1, 0, +1" in refusal(b"0,0,0\n1,1,1\n2,2,-1\n")


def test_one_class_alone_is_accepted():
    assert {y for *_, y in read(b"0,0,1\n1,1,1\n").points} == {1}


def test_points_on_top_of_each_other_are_kept_as_given():
    assert read(b"1,1,1\n1,1,1\n1,1,-1\n").points == ((1.0, 1.0, 1), (1.0, 1.0, 1), (1.0, 1.0, -1))


@pytest.mark.parametrize("data, says", [(b"", "The file is empty"), (b" \n\r\n\t\n", "The file is empty"),
                                        (b"x1,x2,y\n\n", "has a header but no points")])
def test_empty_files_are_refused(data, says):
    assert says in refusal(data)


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"PK\x03\x04\x14\x00\x06\x00",
                                  bytes(range(256)), b"1,1,1\n\x00\x00\n"])
def test_binary_files_are_refused_as_binary(data):
    assert "binary" in refusal(data)


def test_control_characters_without_nul_are_refused_as_not_text():
    assert "control character U+0007" in refusal(b"1,1,1\x07\n")


@pytest.mark.parametrize("data, byte", [("é,1,1".encode("latin-1"), "0xe9"), (b"1,1,1\n\xff", "0xff")])
def test_text_that_is_not_utf8_is_refused_naming_the_byte(data, byte):
    message = refusal(data)
    assert "not UTF-8" in message and byte in message and "CSV UTF-8" in message


def test_utf16_is_refused_with_the_fix_and_a_utf8_bom_is_fine():
    assert "UTF-16" in refusal("x1,x2,y\n1,1,1\n".encode("utf-16"))
    assert read("\ufeffx1,x2,y\n1,1,1\n".encode()).points == ((1.0, 1.0, 1),)


def test_quoted_fields_are_read_and_broken_quotes_refused():
    assert read(b'"1","2","-1"').points == ((1.0, 2.0, -1),)
    assert "not valid CSV" in refusal(b'"1"x,2,1')


def test_an_overlong_line_is_refused_before_it_is_parsed():
    assert "has 5000 characters" in refusal(b"1" * 5000)


def test_exactly_max_rows_points_are_accepted_and_one_more_is_refused():
    rows = b"0.5,0.5,1\n" * MAX_ROWS
    assert len(read(rows).points) == MAX_ROWS
    message = refusal(b"x1,x2,y\n" + rows + b"1,1,-1\n")
    assert f"more than {MAX_ROWS} points (line {MAX_ROWS + 2} is point {MAX_ROWS + 1})" in message


class CountingReader(io.BytesIO):
    """A binary file that records how many bytes were asked of it."""

    requested = 0

    def read(self, size=-1):
        self.requested += len(data := super().read(size))
        return data


def test_a_million_rows_are_refused_fast_without_reading_the_whole_file():
    big = CountingReader(b"0.5,0.5,1\n" * 10**6)
    start = time.perf_counter()
    message = refusal(big)
    assert time.perf_counter() - start < 1.0
    assert "larger than 1 MB" in message
    assert big.requested == MAX_BYTES + 1


def test_a_million_rows_under_a_generous_byte_limit_stop_at_the_first_extra_row():
    start = time.perf_counter()
    message = refusal(b"0.5,0.5,1\n" * 10**6, max_bytes=20 << 20)
    assert time.perf_counter() - start < 1.0
    assert f"line {MAX_ROWS + 1} is point {MAX_ROWS + 1}" in message


def test_coordinates_are_rounded_to_the_precision_the_url_keeps():
    assert read(b"0.123456,-0.005,1\n-0.001,9.999,1").points == ((0.12, -0.01, 1), (0.0, 10.0, 1))


coordinates = hs.floats(-MAX_ABS_COORD, MAX_ABS_COORD, allow_nan=False)


@FUZZ
@given(points=hs.lists(hs.tuples(coordinates, coordinates, hs.sampled_from([-1, 1])), min_size=1, max_size=MAX_ROWS),
       header=hs.booleans(), newline=hs.sampled_from(["\n", "\r\n", "\r"]), pad=hs.sampled_from(["", " ", "\t"]))
def test_any_points_written_as_csv_read_back_rounded_to_two_decimals(points, header, newline, pad):
    lines = (["x1,x2,y"] if header else []) + [f"{pad}{a!r}{pad},{b!r},{y}{pad}" for a, b, y in points]
    got = read(newline.join(lines).encode())
    assert got.points == tuple((round(a, DECIMALS) + 0.0, round(b, DECIMALS) + 0.0, y) for a, b, y in points)
    assert got.header == header


def assert_points_or_refusal(data):
    try:
        got = read(data)
    except ValueError as exc:
        assert str(exc)
        return
    assert 1 <= len(got.points) <= MAX_ROWS
    for x1, x2, y in got.points:
        assert abs(x1) <= MAX_ABS_COORD and abs(x2) <= MAX_ABS_COORD and y in (-1, 1)
        assert round(x1, DECIMALS) == x1 and round(x2, DECIMALS) == x2


@FUZZ
@given(data=hs.binary(max_size=400))
def test_arbitrary_bytes_give_valid_points_or_a_value_error(data):
    assert_points_or_refusal(data)


@FUZZ
@given(text=hs.text(alphabet="0123456789.,-+eExXyY1 \t\r\n\"'#;naif\u2212\uff11", max_size=200))
def test_csv_like_text_gives_valid_points_or_a_value_error(text):
    assert_points_or_refusal(text.encode())


# ---------------------------------------------------------------- points on top of each other, in every solver

def data(n=40):
    return datasets.circles(n, noise=0.1, random_state=1)


def conflicting(n=40):
    """The circles plus a point that is both classes at once: no hard margin can exist."""
    X, y = data(n)
    return np.vstack([X, [[0.3, 0.3], [0.3, 0.3]]]), np.concatenate([y, [1.0, -1.0]])


def test_duplicating_every_point_is_the_same_svm_as_doubling_C():
    # ½‖w‖² + C Σ over two copies of ξ = ½‖w‖² + 2C Σ ξ
    X, y = data()
    X2, y2 = np.vstack([X, X]), np.concatenate([y, y])
    primal, primal2 = PrimalSVM(C=2.0).fit(X, y), PrimalSVM(C=1.0).fit(X2, y2)
    np.testing.assert_allclose(primal2.coef_, primal.coef_, atol=1e-6)
    np.testing.assert_allclose(primal2.intercept_, primal.intercept_, atol=1e-6)
    dual = DualSVM("rbf", C=2.0, gamma=1.0, tol=1e-8).fit(X, y)
    dual2 = DualSVM("rbf", C=1.0, gamma=1.0, tol=1e-8).fit(X2, y2)
    grid = np.random.default_rng(0).uniform(-1.5, 1.5, size=(200, 2))
    np.testing.assert_allclose(dual2.decision_function(grid), dual.decision_function(grid), atol=1e-5)


@pytest.mark.parametrize("C", [0.01, 1.0, 1000.0])
def test_one_point_with_both_labels_costs_exactly_two_C_in_primal_and_dual(C):
    # y = +1 and −1 at the same x: ξ₁ + ξ₂ ≥ 2 whatever (w, b), so the primal optimum is w = 0 with cost 2C;
    # in the dual α₁ = α₂ = C (Σαy = 0, and αᵀGα = 0), objective 2C
    X, y = np.array([[0.5, -0.5], [0.5, -0.5]]), np.array([1.0, -1.0])
    primal = PrimalSVM(C=C).fit(X, y)
    np.testing.assert_allclose(primal.primal_objective_, 2 * C, rtol=1e-7)
    np.testing.assert_allclose(primal.coef_, 0.0, atol=1e-7)
    for kernel in ("linear", "rbf", "poly"):
        dual = DualSVM(kernel, C=C, gamma=1.0, tol=1e-9).fit(X, y)
        np.testing.assert_allclose(dual.dual_objective_, 2 * C, rtol=1e-9)
        np.testing.assert_allclose(dual.alpha_, [C, C], rtol=1e-12)


@pytest.mark.parametrize("kernel, offset", [("linear", True), ("rbf", True), ("rbf", False), ("poly", True),
                                            ("laplacian", False)])
def test_hard_margin_dual_on_conflicting_points_is_a_clear_error_not_a_hang(kernel, offset):
    X, y = conflicting()
    start = time.perf_counter()
    with pytest.raises(ValueError, match="not separable"):
        DualSVM(kernel, C=np.inf, gamma=10.0, degree=10, fit_intercept=offset, tol=1e-9).fit(X, y)
    assert time.perf_counter() - start < 10.0


@pytest.mark.parametrize("offset", [True, False])
def test_hard_margin_primal_on_conflicting_points_is_a_clear_error(offset):
    X, y = conflicting()
    with pytest.raises(ValueError, match="not linearly separable.*finite C"):
        PrimalSVM(C=np.inf, fit_intercept=offset).fit(np.column_stack([X, (X**2).sum(axis=1)]), y)


def test_soft_margin_solvers_finish_on_conflicting_points_with_finite_answers():
    X, y = conflicting()
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # no solver may give up here either
        dual = DualSVM("rbf", C=1000.0, gamma=1.0, tol=1e-6).fit(X, y)
        primal = PrimalSVM(C=1000.0).fit(np.column_stack([X, (X**2).sum(axis=1)]), y)
        pegasos = KernelPegasos("rbf", lam=1e-4, n_iter=5000, gamma=1.0, random_state=0).fit(X, y)
    for values in (dual.alpha_, dual.decision_function(X), primal.coef_, pegasos.alpha_, pegasos.decision_function(X)):
        assert np.all(np.isfinite(values))
    # the pair can never both be right: every solution pays for it
    assert dual.alpha_[-2:].min() > 0 and primal.slack_[-2:].sum() >= 2 - 1e-6


def test_the_perceptron_on_conflicting_points_says_it_did_not_converge():
    X, y = conflicting()
    with pytest.warns(RuntimeWarning, match="mistakes in every one of max_epochs=20"):
        model = KernelPerceptron("rbf", max_epochs=20, gamma=10.0).fit(X, y)
    assert not model.converged_ and model.n_epochs_ == 20


def test_logistic_regression_puts_probability_one_half_on_a_point_with_both_labels():
    # K is all ones on identical points and the labels cancel, so β stays antisymmetric and f = 0
    X, y = np.zeros((2, 2)), np.array([1.0, -1.0])
    model = KernelLogisticRegression("rbf", lam=0.1, n_iter=200, gamma=1.0).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], 0.5, atol=1e-12)


def test_the_gram_matrix_of_repeated_points_is_psd_and_singular():
    X, _ = data(20)
    K = rbf_kernel(np.vstack([X, X, X[:5]]), gamma=2.0)
    check = check_psd(K)
    assert check.is_psd and check.certificate is None
    assert abs(check.eigenvalues[0]) <= 1e-10 * check.eigenvalues[-1]


# ---------------------------------------------------------------- the app: uploads, the URL's points, page switches

def app(pts=None):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if pts is not None:
        at.query_params["pts"] = pts
    at.run()
    assert not at.exception, at.exception
    return at


def upload(at, content, name="points.csv"):
    at.get("file_uploader")[0].set_value((name, content, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    return at


def sidebar_text(at, kind):
    # messages echo file content, so the sidebar shows them with markdown punctuation escaped
    return [e.value.replace("\\", "") for e in getattr(at.sidebar, kind)]


def test_an_uploaded_csv_replaces_the_points_and_goes_to_the_url():
    at = app(pts="1.00_1.00_1")
    upload(at, b"x1,x2,y\n0.5,-1.25,1\n-2,3,-1\n2,2,-1\n")
    assert at.session_state["user_points"] == ((0.5, -1.25, 1), (-2.0, 3.0, -1), (2.0, 2.0, -1))
    assert at.query_params["pts"] == "0.50_-1.25_1~-2.00_3.00_-1~2.00_2.00_-1"
    assert sidebar_text(at, "success") == ["Loaded 3 points from points.csv; they replaced your previous points."]
    # the uploader is empty again, ready for the next file: the points, not the file, are the state
    assert at.get("file_uploader")[0].value is None


def test_an_upload_with_zero_one_labels_says_how_it_read_them():
    at = upload(app(), b"0,0,0\n1,1,1\n")
    assert at.session_state["user_points"] == ((0.0, 0.0, -1), (1.0, 1.0, 1))
    assert "Labels 0/1 were read as −1/+1 (0 → −1)" in sidebar_text(at, "success")[0]


HOSTILE_UPLOADS = {
    "empty": b"",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
    "wrong header": b"a,b,label\n1,2,1\n",
    "text in numbers": b"1,one,1\n",
    "nan": b"nan,1,1\n",
    "inf": b"1,1e999,1\n",
    "bad label": b"1,1,3\n",
    "latin-1": "é,1,1".encode("latin-1"),
    "a million rows": b"0.5,0.5,1\n" * 10**6,
    "201 rows": b"0.5,0.5,1\n" * 201,
}


@pytest.mark.parametrize("content", HOSTILE_UPLOADS.values(), ids=HOSTILE_UPLOADS.keys())
def test_a_hostile_upload_is_an_error_in_the_sidebar_and_the_points_are_kept(content):
    at = app(pts="1.00_1.00_1~-1.00_-1.00_-1")
    start = time.perf_counter()
    upload(at, content, name="[evil](https://example.com)$x$.csv")
    assert time.perf_counter() - start < 10
    expected = refusal(content)
    assert sidebar_text(at, "error") == [f"[evil](https://example.com)$x$.csv: {expected} Your points are unchanged."]
    assert at.session_state["user_points"] == ((1.0, 1.0, 1), (-1.0, -1.0, -1))
    assert at.query_params["pts"] == "1.00_1.00_1~-1.00_-1.00_-1"
    # the message is shown as text: its brackets and dollars are escaped, not a link or LaTeX
    assert r"\[evil\]\(https\:\/\/example\.com\)\$x\$" in at.sidebar.error[0].value


def test_one_class_uploaded_joins_the_dataset_but_alone_gets_the_cores_message():
    at = upload(app(), b"0.1,0.1,1\n0.2,0.2,1\n")
    at.switch_page("lessons/primal_dual/page.py")
    at.run()
    assert not at.exception and not at.error
    at.session_state["only_mine"] = True
    at.run()
    assert not at.exception
    assert [e.value for e in at.main.error] == [
        "y contains only the class +1; a classifier needs points of both classes."]


def add_typed_point(at, x1, x2):
    at.sidebar.number_input(key="new_x1").set_value(x1)
    at.sidebar.number_input(key="new_x2").set_value(x2)
    next(b for b in at.sidebar.button if b.label == "Add").click()
    at.run()
    assert not at.exception, at.exception


def test_points_survive_a_page_switch():
    at = app()
    add_typed_point(at, 1.5, -0.5)
    add_typed_point(at, 1.5, -0.5)
    for page in PAGES[1:3]:
        at.switch_page(page)
        at.run()
        assert not at.exception
        assert at.session_state["user_points"] == ((1.5, -0.5, 1), (1.5, -0.5, 1))
        assert at.query_params["pts"] == "1.50_-0.50_1~1.50_-0.50_1"


def test_a_reload_restores_the_points_from_the_url():
    first = app()
    add_typed_point(first, -2.25, 0.75)
    reloaded = app(pts=first.query_params["pts"])
    assert reloaded.session_state["user_points"] == ((-2.25, 0.75, 1),)


def link(at):
    """The URL the browser shows for this session: ?pts= and every bound control as the frontend writes it
    (options by their label, booleans as true/false)."""
    params = {"pts": at.query_params["pts"]} if "pts" in at.query_params else {}
    for kind in ("slider", "select_slider", "selectbox", "button_group", "toggle", "checkbox", "number_input"):
        for w in at.get(kind):
            if w.key is None or w.key in ("new_x1", "new_x2"):
                continue
            value = w.value
            if kind in ("select_slider", "selectbox", "button_group"):
                params[w.key] = str(w.format_func(value))
            elif isinstance(value, bool):
                params[w.key] = str(value).lower()
            else:
                params[w.key] = str(value)
    for key, options in live_controls(at).items():   # a live slider writes the link's text of its position
        params[key] = options["link"][options["value"]] if "link" in options else str(at.session_state[key])
    return params


def the_view(at):
    """Everything a student sees of the lesson: figures, numbers, tables, messages."""
    return (figures(at), [(m.label, m.value) for m in at.metric],
            [d.value.to_dict() for d in at.dataframe], [e.value for e in at.error], [w.value for w in at.warning])


def test_a_shared_link_reproduces_the_view_exactly():
    page = "lessons/primal_dual/page.py"
    teacher = upload(app(), b"0.4,0.4,-1\n-0.3,0.9,1\n0.4,0.4,1\n")
    teacher.sidebar.selectbox(key="dataset").set_value("moons")
    teacher.sidebar.slider(key="noise").set_value(0.25)
    teacher.run()
    teacher.switch_page(page)
    teacher.run()
    teacher.button_group(key="pd_space").set_value("kernel").run()
    teacher.session_state["pd_C"] = 100.0
    teacher.session_state["pd_gamma"] = 5.62
    teacher.run()
    assert not teacher.exception
    url = link(teacher)
    assert {"pts", "dataset", "noise", "pd_space", "pd_C", "pd_gamma"} <= set(url)
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    student.query_params.update(url)
    student.run()
    student.switch_page(page)
    student.run()
    assert not student.exception
    assert student.session_state["user_points"] == teacher.session_state["user_points"]
    assert the_view(student) == the_view(teacher)
    assert the_view(student)[0], "no figure to compare"


JUNK_PTS = {
    "words": ("hello~world", ()),
    "mixed": ("1.00_2.00_1~junk~3_4_-1~1_1_3~1e5_1_1~nan_1_1~-0.5_0.25_-1", ((1.0, 2.0, 1), (3.0, 4.0, -1),
                                                                          (-0.5, 0.25, -1))),
    "look-alike digits": ("\u0661_1_1~\uff11_1_1~2_2_1", ((2.0, 2.0, 1),)),
    "code": ("__import__('os').system('echo hi')~1_1_1", ((1.0, 1.0, 1),)),
    "newline tail": ("1_1_1\n~2_2_-1", ((2.0, 2.0, -1),)),
    "three decimals round": ("0.125_-0.004_1", ((0.12, 0.0, 1),)),
    "many": ("~".join(["0.5_0.5_1"] * 300), ((0.5, 0.5, 1),) * 200),
    "long": ("x" * 400_000 + "~1_1_1", ((1.0, 1.0, 1),)),
}


@pytest.mark.parametrize("pts, kept", JUNK_PTS.values(), ids=JUNK_PTS.keys())
def test_junk_in_the_urls_points_is_dropped_without_an_exception(pts, kept):
    # (a query string over 512 K characters Streamlit ignores as a whole, before the app sees it)
    at = app(pts=pts)
    assert at.session_state["user_points"] == kept
    # the URL is rewritten to the points that were kept, so a link made from it carries no junk
    assert at.query_params.get("pts", "") == "~".join(f"{a:.2f}_{b:.2f}_{y}" for a, b, y in kept)


# a pile: the same point three times, twice with opposite labels, and a second conflicting pair
PILE = "0.00_0.00_1~0.00_0.00_1~0.00_0.00_-1~0.50_0.50_-1~0.50_0.50_1"


@pytest.mark.parametrize("page", PAGES)
def test_every_page_handles_only_points_piled_on_top_of_each_other(page):
    at = app(pts=PILE)
    at.session_state["only_mine"] = True
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    assert figures(at), "the page drew no figure"


@pytest.mark.parametrize("page, hard", [("lessons/circle/page.py", "cl_hard"),
                                        ("lessons/primal_dual/page.py", "pd_hard")])
def test_hard_margin_on_piled_points_is_a_clear_not_separable_message(page, hard):
    at = app(pts=PILE)
    at.session_state["only_mine"] = True
    at.switch_page(page)
    at.run()
    at.session_state[hard] = True    # a live toggle (lab/live_control.py): its value is the session's
    start = time.perf_counter()
    at.run()
    assert time.perf_counter() - start < 10
    assert not at.exception
    assert any("not linearly separable" in e.value and "finite C" in e.value for e in at.error)


# ---------------------------------------------------------------- limits are shown, and solvers that stop early say so

def test_the_sidebar_lists_every_limit_with_the_values_the_code_enforces():
    at = app()
    (limits,) = [c.value for c in at.sidebar.caption if "CSV upload" in c.value]
    assert f"n ≤ {N_MAX} points" in limits
    assert f"at most {MAX_USER_POINTS}; typed or uploaded ones within ±{MAX_ABS_COORD:g}" in limits
    assert f"CSV upload: at most {st.get_option('server.maxUploadSize')} MB and {MAX_USER_POINTS} points" in limits
    assert f"a {GRID_POINTS} × {GRID_POINTS} grid" in limits
    assert f"kernel formula: at most {MAX_LENGTH} characters" in limits
    assert f"{DualSVM().max_iter:,} SMO steps" in limits and f"{PrimalSVM().max_iter} interior-point" in limits


def test_a_perceptron_that_runs_out_of_epochs_says_so_on_the_page():
    at = app()
    at.switch_page("lessons/pegasos/page.py")
    at.run()
    at.session_state["pg_epochs"] = 1
    at.run()
    assert not at.exception
    assert any("Did not converge in 1 epoch:" in w.value for w in at.warning)


def test_solvers_stopped_at_their_iteration_limit_say_so_instead_of_hanging():
    # the worst SMO case of lesson 3: degree 10, γ = 100, C = 1000 on 500 noisy spirals, compared with
    # scikit-learn, whose libsvm has no iteration limit of its own (it ran for minutes before SKLEARN_MAX_ITER)
    at = app()
    for key, value in {"dataset": "spirals", "n": 500, "noise": 0.5}.items():
        at.sidebar.get_by_key(key).set_value(value)
    at.run()
    at.switch_page("lessons/primal_dual/page.py")
    at.run()
    at.button_group(key="pd_space").set_value("kernel").run()
    at.selectbox(key="pd_kernel").set_value("poly").run()
    for key, value in {"pd_C": 1000.0, "pd_gamma": 100.0, "pd_degree": 10}.items():
        at.session_state[key] = value       # live sliders (lab/live_control.py): their value is the session's
    at.get_by_key("pd_sklearn").set_value(True)
    start = time.perf_counter()
    at.run()
    assert time.perf_counter() - start < 30
    assert not at.exception
    # either the dual is solved, and scikit-learn's comparison is shown, or the page says plainly that it is not
    # and shows no number of the unfinished iterate as the answer
    stopped = [e.value for e in at.error if e.value.startswith("The dual (SMO) stopped")]
    if stopped:
        assert not at.metric and not at.dataframe
        assert any(c.value.startswith("The solver's own words") for c in at.caption)
    else:
        assert "margin 1/‖w‖" in {m.label for m in at.metric}


def test_link_points_the_upload_would_refuse_are_dropped_with_a_visible_notice():
    at = app(pts="1_1_1~999.99_0_1~0_-500_-1")
    assert at.query_params["pts"] == "1.00_1.00_1"
    bodies = [t.proto.body for t in at.toast]
    assert any(r"2 point\(s\) outside ±10" in b for b in bodies), bodies
