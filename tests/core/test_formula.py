"""kernel_core.formula: typed formulas equal the library kernels; hostile input is refused fast."""

import ast
import builtins
import math
import os
import pathlib
import string
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import pairwise

from kernel_core import formula, kernels
from kernel_core.formula import MAX_ELEMENTS, MAX_LENGTH, parse_kernel

RNG = np.random.default_rng(0)
X = RNG.uniform(-2, 2, (9, 3))
Y = RNG.uniform(-2, 2, (6, 3))


# ---- parsed kernels equal scikit-learn / kernel_core.kernels --------------------------------

@pytest.mark.parametrize(
    "expr, params, oracle",
    [
        ("dot(x, z)", {}, lambda A, B: pairwise.linear_kernel(A, B)),
        ("(1 + dot(x, z))**3", {}, lambda A, B: pairwise.polynomial_kernel(A, B, degree=3, gamma=1, coef0=1)),
        ("(g * dot(x, z) + c)**p", {"g": 0.3, "c": 2.0, "p": 4},
         lambda A, B: pairwise.polynomial_kernel(A, B, degree=4, gamma=0.3, coef0=2.0)),
        ("exp(-g * norm(x - z)**2)", {"g": 0.5}, lambda A, B: pairwise.rbf_kernel(A, B, gamma=0.5)),
        ("exp(-norm(z - x)**2 / (2 * s**2))", {"s": 1.5}, lambda A, B: pairwise.rbf_kernel(A, B, gamma=1 / 4.5)),
        ("tanh(a * dot(x, z) + c)", {"a": 0.2, "c": -0.4},
         lambda A, B: pairwise.sigmoid_kernel(A, B, gamma=0.2, coef0=-0.4)),
        ("exp(-g * norm(x - z))", {"g": 0.8}, lambda A, B: kernels.exponential_kernel(A, B, gamma=0.8)),
    ],
    ids=["linear", "poly3", "poly_params", "rbf", "rbf_sigma", "sigmoid", "exponential"],
)
def test_parsed_formula_equals_library_kernel(expr, params, oracle):
    k = parse_kernel(expr, **params)
    np.testing.assert_allclose(k(X, Y), oracle(X, Y), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(k(X), oracle(X, X), rtol=1e-12, atol=1e-14)


def test_abs_distance_in_one_dimension_is_scikit_learn_laplacian():
    A, B = X[:, :1], Y[:, :1]
    k = parse_kernel("exp(-g * norm(abs(x - z)))", g=0.7)
    np.testing.assert_allclose(k(A, B), pairwise.laplacian_kernel(A, B, gamma=0.7), rtol=1e-12)


@pytest.mark.parametrize(
    "fast, general",
    [
        ("dot(x, z)", "dot(1 * x, z)"),
        ("dot(z, x)", "dot(x / 1, z)"),
        ("norm(x - z)", "sqrt(dot(x - z, x - z))"),
        ("norm(z - x)", "norm(-1 * (x - z))"),
    ],
)
def test_matmul_and_distance_shortcuts_agree_with_broadcast_evaluation(fast, general):
    np.testing.assert_allclose(parse_kernel(fast)(X, Y), parse_kernel(general)(X, Y), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "expr, oracle",
    [
        ("dot(abs(x), exp(z))", lambda A, B: np.abs(A) @ np.exp(B).T),
        ("norm(x) * norm(z)", lambda A, B: np.outer(np.linalg.norm(A, axis=1), np.linalg.norm(B, axis=1))),
        ("dot(x, x) + 0 * dot(x, z)", lambda A, B: np.repeat((A**2).sum(1)[:, None], len(B), axis=1)),
        ("tanh(dot(x - z, x + z))", lambda A, B: np.tanh((A**2).sum(1)[:, None] - (B**2).sum(1)[None, :])),
        ("2.5", lambda A, B: np.full((len(A), len(B)), 2.5)),
        ("+-+2 * dot(x, z) / 4", lambda A, B: -0.5 * A @ B.T),
        ("norm(x - z)**-1 * 0 + 1e3 * 1_0", lambda A, B: np.full((len(A), len(B)), 1e4)),
    ],
)
def test_elementwise_functions_and_mixed_shapes_match_numpy(expr, oracle):
    np.testing.assert_allclose(parse_kernel(expr)(X, Y), oracle(X, Y), rtol=1e-12)


def test_rows_evaluated_in_chunks_give_the_same_gram(monkeypatch):
    A = RNG.uniform(-2, 2, (50, 3))
    expr = "exp(-norm(x - z)**2) + dot(x, z) + tanh(dot(x - z, x + z))"
    whole = parse_kernel(expr)(A)
    monkeypatch.setattr(formula, "CHUNK_ELEMENTS", 40)
    chunked = parse_kernel(expr)(A)
    sq = (A**2).sum(axis=1)
    oracle = pairwise.rbf_kernel(A, gamma=1) + A @ A.T + np.tanh(sq[:, None] - sq[None, :])
    np.testing.assert_allclose(chunked, whole, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(chunked, oracle, rtol=1e-12, atol=1e-12)


def test_kernel_carries_its_source_and_parameters():
    k = parse_kernel("  exp(-g * norm(x - z)**2) ", g=0.5)
    assert k.expr == "exp(-g * norm(x - z)**2)"
    assert k.params == {"g": 0.5}
    assert "exp(-g" in k.__doc__


def test_numpy_number_parameters_are_accepted():
    k = parse_kernel("a * dot(x, z) + b", a=np.float32(2.0), b=np.int64(1))
    np.testing.assert_allclose(k(X, Y), 2 * X @ Y.T + 1, rtol=1e-6)


@pytest.mark.parametrize(
    "A, B, match",
    [
        (np.ones((3, 2)), np.ones((3, 3)), "same number of features"),
        ([[np.nan, 1.0]], None, "NaN"),
        ("abc", None, "numeric"),
    ],
)
def test_kernel_validates_its_inputs(A, B, match):
    with pytest.raises(ValueError, match=match):
        parse_kernel("dot(x, z)")(A, B)


@pytest.mark.parametrize(
    "expr",
    ["1e308 * 1e308", "sqrt(dot(x, z))", "1 / norm(x - z)", "exp(1000 * dot(x, z))", "(dot(x, z) - 1e300)**10"],
)
def test_non_finite_output_raises_value_error(expr):
    with pytest.raises(ValueError, match="non-finite"):
        parse_kernel(expr)(X)


# ---- typing errors that students make -------------------------------------------------------

@pytest.mark.parametrize(
    "expr, match",
    [
        ("x", "gives a vector"),
        ("x - z", "Use dot\\(\\) or norm\\(\\)"),
        ("exp(x)", "gives a vector"),
        ("x * z", "dot\\(u, v\\)"),
        ("x / z", "dot\\(u, v\\)"),
        ("1 / x", "dividing by a vector"),
        ("dot(x, z) + x", "adding a vector and a number"),
        ("norm(dot(x, z))", "norm of a number"),
        ("dot(x, 1)", "dot of a number"),
        ("dot(x)", "dot takes 2"),
        ("norm(x, z)", "norm takes 1"),
        ("g * dot(x, z)", "unknown name 'g'"),
        ("", "empty"),
        ("dot(x, z) +", "not valid"),
    ],
)
def test_type_and_syntax_errors_explain_the_fix(expr, match):
    with pytest.raises(ValueError, match=match):
        parse_kernel(expr)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"__class__": 1.0}, "Parameter name"),
        ({"_g": 1.0}, "Parameter name"),
        ({"x": 1.0}, "Parameter name"),
        ({"exp": 1.0}, "Parameter name"),
        ({"lambda": 1.0}, "Parameter name"),
        ({"g": math.nan}, "finite"),
        ({"g": math.inf}, "finite"),
        ({"g": -np.inf}, "finite"),
        ({"g": "0.5"}, "real number"),
        ({"g": True}, "real number"),
        ({"g": 1j}, "real number"),
        ({"g": None}, "real number"),
        ({"g": [1.0]}, "real number"),
    ],
)
def test_bad_parameters_are_refused(params, match):
    with pytest.raises(ValueError, match=match):
        parse_kernel("dot(x, z)", **params)


def test_parameter_exponent_above_the_limit_is_refused():
    with pytest.raises(ValueError, match="exponents are limited"):
        parse_kernel("dot(x, z)**p", p=11)


# ---- the hostile corpus ---------------------------------------------------------------------

SENTINEL = "/tmp/kernel_lab_formula_pwned"
# within the Gram-size limit of check_pair (n·m = 3.6e7) but over the formula's n·m·d limit (1.1e8)
HUGE = np.zeros((6_000, 3))

HOSTILE = [
    ("import_os", f"__import__('os').system('touch {SENTINEL}')", {}, "Character"),
    ("import_os_no_quotes", "__import__(os)", {}, "only dot, norm"),
    ("subclasses", "().__class__.__bases__[0].__subclasses__()", {}, "Character"),
    ("dunder_attribute", "x.__class__", {}, "attribute access"),
    ("attribute_of_call", "dot(x, z).real", {}, "attribute access"),
    ("lambda", "lambda: 1", {}, "Character ':'"),
    ("list_comprehension", "[x for x in z]", {}, "Character '\\['"),
    ("generator", "(x for x in z)", {}, "generator expression"),
    ("tower_power", "9**9**9", {}, "exponent"),
    ("huge_power", "x**1000000", {}, "exponents are limited"),
    ("negative_huge_power", "dot(x, z)**-99", {}, "exponents are limited"),
    ("power_of_call", "exp(x)**exp(x)", {}, "exponent"),
    ("open_file", "open('/etc/passwd')", {}, "Character"),
    ("open_name", "open(x)", {}, "only dot, norm"),
    ("getattr", "getattr(x, 'T')", {}, "Character"),
    ("getattr_no_quotes", "getattr(x, T)", {}, "only dot, norm"),
    ("numpy_alloc", "np.ones(10**9)", {}, "only dot, norm"),
    ("eval_name", "eval(x)", {}, "only dot, norm"),
    ("conditional", "dot(x, z) if 1 else 0", {}, "if/else"),
    ("keyword_arg", "exp(x=1)", {}, "Character '='"),
    ("double_star_kwargs", "dot(x, **z)", {}, "keyword arguments"),
    ("starred", "dot(*x, z)", {}, "starred"),
    ("string", "'abc'", {}, "Character"),
    ("bytes", "b'abc'", {}, "Character"),
    ("fstring", "f'{x}'", {}, "Character"),
    ("matmul", "x @ z", {}, "dot\\(x, z\\)"),
    ("comparison", "dot(x, z) < 1", {}, "Character '<'"),
    ("and", "x and z", {}, "and/or"),
    ("not", "not x", {}, "unary"),
    ("floor_div", "x // z", {}, "FloorDiv"),
    ("string_bomb", "'a'*10**9", {}, "Character"),
    ("float_overflow", "1e308*1e308", {}, "non-finite"),
    ("literal_overflow", "1e999 * dot(x, z)", {}, "too large"),
    ("complex", "1j * dot(x, z)", {}, "complex"),
    ("bool", "True * dot(x, z)", {}, "bool"),
    ("none", "None", {}, "NoneType"),
    ("ellipsis", "...", {}, "ellipsis"),
    ("tuple", "(x, z)", {}, "tuple"),
    ("function_as_value", "exp", {}, "call it"),
    ("call_a_call", "dot(x, z)(x)", {}, "only dot, norm"),
    ("overlong", "1+" * 500_000 + "1", {}, "limit is 300"),
    ("deep_parens", "(" * 5000 + "x" + ")" * 5000, {}, "limit is 300"),
    ("deep_negation", "-(" * 3000 + "1" + ")" * 3000, {}, "limit is 300"),
    ("deep_negation_short", "-(" * 99 + "1" + ")" * 99, {}, "too large"),
    ("minus_run", "-" * 299 + "1", {}, "too large"),
    ("parens_over_parser_limit", "(" * 250 + "1", {}, "not valid"),
    ("fullwidth_exp", "ｅｘｐ(-norm(x - z))", {}, "Non-ASCII"),
    ("cyrillic_e_in_exp", "\u0435xp(-norm(x - z))", {}, "Non-ASCII"),
    ("fullwidth_x", "dot(ｘ, z)", {}, "Non-ASCII"),
    ("nul_byte", "dot(x, z)\x00", {}, "Character '\\\\x00'"),
    ("newline", "dot(x, z)\nimport os", {}, "Character '\\\\n'"),
    ("semicolon", "dot(x, z); import os", {}, "Character ';'"),
    ("walrus", "(y := dot(x, z))", {}, "Character ':'"),
    ("param_dunder", "dot(x, z)", {"__class__": 1.0}, "Parameter name"),
    ("param_shadows_x", "x", {"x": 1.0}, "Parameter name"),
    ("param_nan", "g * dot(x, z)", {"g": math.nan}, "finite"),
    ("param_inf", "g * dot(x, z)", {"g": math.inf}, "finite"),
    ("huge_gram", "dot(x, z)", {}, "n·m·d"),
]


def _call(expr, params, name):
    k = parse_kernel(expr, **params)
    if name == "huge_gram":
        return k(HUGE)
    return k(X, Y)


@pytest.mark.parametrize("name, expr, params, match", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_formula_is_refused_fast_and_runs_nothing(name, expr, params, match, monkeypatch):
    calls = []
    for module, attr in [(os, "system"), (os, "popen"), (builtins, "eval"), (builtins, "exec"), (builtins, "open")]:
        monkeypatch.setattr(module, attr, lambda *a, _n=attr, **kw: calls.append(_n))
    if os.path.exists(SENTINEL):
        os.remove(SENTINEL)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=match) as info:
        _call(expr, params, name)
    elapsed = time.perf_counter() - start
    monkeypatch.undo()
    assert elapsed < 0.05, f"took {elapsed * 1e3:.1f} ms"
    assert calls == []
    assert not os.path.exists(SENTINEL)
    assert len(str(info.value)) < 600


def test_the_ast_allow_list_alone_refuses_what_the_character_filter_catches(monkeypatch):
    # defence in depth: with every printable character let through, the AST layer still refuses
    monkeypatch.setattr(formula, "_ALLOWED_CHARS", frozenset(string.printable))
    for expr in [
        f"__import__('os').system('touch {SENTINEL}')",
        "().__class__.__bases__[0].__subclasses__()",
        "lambda: 1",
        "[x for x in z]",
        "{x for x in z}",
        "{x: z}",
        "x[0]",
        "dot(x, z) < 1",
        "'a'*10**9",
        "b'a'",
        "f'{x}'",
        "(y := dot(x, z))",
        "exp(x=1)",
        "x @ z",
        "x % z",
        "x | z",
        "~x",
        "dot(x, z); 1",
        "dot(x, z)\nimport os",
        "await x",
    ]:
        with pytest.raises(ValueError):
            parse_kernel(expr)
    assert not os.path.exists(SENTINEL)


def test_formula_module_never_names_eval_exec_or_compile():
    tree = ast.parse(pathlib.Path(formula.__file__).read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not names & {"eval", "exec", "compile", "__import__", "getattr", "literal_eval"}


@pytest.mark.parametrize("module", ["formula", "mercer"])
def test_module_imports_only_numpy_and_the_standard_library(module):
    path = pathlib.Path(formula.__file__).with_name(f"{module}.py")
    allowed = {"ast", "keyword", "math", "string", "dataclasses", "typing", "numpy"}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            assert {alias.name.split(".")[0] for alias in node.names} <= allowed
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module.split(".")[0] in allowed


# ---- fuzzing: any text either parses into a working kernel or raises ValueError -------------

TOKENS = ["x", "z", "g", "dot(", "norm(", "exp(", "tanh(", "sqrt(", "abs(", "(", ")", ",", "+", "-", "*", "/",
          "**", "2", "0.5", "1e308", "-1", " ", ".", "_", "e"]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(TOKENS), max_size=25).map("".join), st.text(max_size=40)))
def test_any_text_gives_a_finite_kernel_or_a_value_error(expr):
    try:
        k = parse_kernel(expr, g=0.5)
    except ValueError:
        return
    try:
        K = k(X, Y)
    except ValueError as exc:
        assert "non-finite" in str(exc)
        return
    assert K.shape == (len(X), len(Y)) and K.dtype == np.float64 and np.all(np.isfinite(K))


def test_length_limit_is_inclusive():
    padded = "dot(x, z)".ljust(MAX_LENGTH)
    np.testing.assert_allclose(parse_kernel(padded)(X, Y), X @ Y.T, rtol=1e-12)
    with pytest.raises(ValueError, match="limit is 300"):
        parse_kernel(padded + " ")


def test_size_limit_is_on_n_m_d():
    d = 1000
    n_ok = math.isqrt(MAX_ELEMENTS // d)
    A = np.ones((n_ok, d))
    assert parse_kernel("dot(x, z)")(A).shape == (n_ok, n_ok)
    with pytest.raises(ValueError, match="n·m·d"):
        parse_kernel("dot(x, z)")(np.ones((n_ok + 1, d)))


# --- memory and work bounded whatever the shapes -------------------------------------------------------

def test_formula_memory_stays_bounded_for_one_row_against_many():
    # chunking over rows of X alone made one (1, 200 000, 50) array (80 MB) per vector operation
    import tracemalloc

    k = formula.parse_kernel("exp(-g * norm(x * 0.5 - z * 0.5))", g=0.1)
    X, Y = np.ones((1, 50)), np.zeros((200_000, 50))
    tracemalloc.start()
    K = k(X, Y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    np.testing.assert_allclose(K, np.exp(-0.1 * np.sqrt(50 * 0.25)), rtol=1e-12)
    assert peak <= 4 * 8 * formula.CHUNK_ELEMENTS + 2 * K.nbytes


def test_a_formula_whose_work_is_beyond_the_limit_fails_fast():
    # 33 vector operations on 1 × 20 000 points in 1 000 dimensions: 6.6e8 values, though n·m·d is within limits
    expr = " + ".join(["dot(x - z, x + z)"] * 11)
    assert len(expr) <= formula.MAX_LENGTH
    k = formula.parse_kernel(expr)
    X, Y = np.ones((1, 1000)), np.ones((20_000, 1000))
    start = time.perf_counter()
    with pytest.raises(ValueError, match="computes .* values; the limit is"):
        k(X, Y)
    assert time.perf_counter() - start < 1.0


def test_formula_parameters_beyond_float_range_are_value_errors():
    with pytest.raises(ValueError, match="g is too large for float64"):
        formula.parse_kernel("exp(-g * norm(x - z))", g=10**400)


@pytest.mark.parametrize("expr", ["0x" + "f" * 256, "dot(x, z)**0x" + "f" * 256, "dot(x, z)**-0x" + "f" * 256,
                                  "dot(x, z) * 0x" + "f" * 280])
def test_an_integer_beyond_float64_is_a_clear_value_error_not_an_overflow(expr):
    assert len(expr) <= MAX_LENGTH
    with pytest.raises(ValueError, match="too large for float64|exponents are limited"):
        parse_kernel(expr)
