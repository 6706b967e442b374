"""Kernel formulas typed by a student, read without ever running Python.

``parse_kernel("exp(-g * norm(x - z)**2)", g=0.5)`` returns k(X, Y=None) -> Gram. The text
is parsed by ``ast.parse(mode="eval")``, every node is checked against an allow-list, and
the tree is turned into numpy closures; nothing is eval'd, exec'd or compiled to code.

Language
    x, z                    the two points, vectors of length d
    numbers, parameters     scalars; parameters are the keyword arguments of parse_kernel
    + -                     vector ± vector or scalar ± scalar
    * /                     scalar * scalar, vector * scalar, scalar / scalar, vector / scalar
    **                      power; the exponent is a number or a parameter, |p| ≤ MAX_POWER
    dot(u, v), norm(u)      vectors -> scalar
    exp, tanh, sqrt, abs    elementwise, on scalars or vectors
    The whole formula must give one number per pair (x, z).

Notation
    X      (n, d)      points x_i
    Y      (m, d)      points z_j (Y=None means Y = X)
    K      (n, m)      Gram matrix, K[i, j] = k(x_i, z_j)
    During evaluation x is X[:, None, :], z is Y[None, :, :]; scalars broadcast to (n, m)
    and vectors to (n, m, d). dot(x, z) is X @ Yᵀ and norm(x - z) comes from
    kernels.distances, so the common kernels never build the (n, m, d) array.
"""

import ast
import keyword
import math
import string

import numpy as np

from .kernels import distances
from .validation import check_pair, check_real

MAX_LENGTH = 300  # characters, checked before parsing
MAX_NODES = 200  # AST nodes, operators and contexts included
MAX_DEPTH = 32  # AST nesting
MAX_POWER = 10  # |p| in u**p
MAX_ELEMENTS = 50_000_000  # n·m·d per call of k
MAX_WORK = 500_000_000  # values computed per call of k: Σ over the formula's operations of the array each makes
CHUNK_ELEMENTS = 1 << 20  # blocks of rows of X and of Y hold at most this many values per (n, m, d) array

VARIABLES = ("x", "z")
FUNCTIONS = {"dot": 2, "norm": 1, "exp": 1, "tanh": 1, "sqrt": 1, "abs": 1}
_ELEMENTWISE = {"exp": np.exp, "tanh": np.tanh, "sqrt": np.sqrt, "abs": np.abs}
_ALLOWED_CHARS = frozenset(string.ascii_letters + string.digits + "_ .+-*/(),")
_CHAR_HINTS = {"@": "write dot(x, z) for x·z", "^": "write ** for powers", "|": "write norm(x - z) for ‖x − z‖"}
_NODE_NAMES = {
    ast.Attribute: "attribute access",
    ast.Subscript: "indexing",
    ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.Compare: "a comparison",
    ast.BoolOp: "and/or",
    ast.IfExp: "if/else",
    ast.JoinedStr: "an f-string",
    ast.NamedExpr: "the walrus :=",
    ast.Starred: "a starred argument",
    ast.Tuple: "a tuple",
    ast.List: "a list",
    ast.Set: "a set",
    ast.Dict: "a dict",
}
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_SCALAR, _VECTOR = "scalar", "vector"
_ALLOWED_TEXT = "x, z, numbers, parameters, + - * / ** and dot, norm, exp, tanh, sqrt, abs"


def _check_text(expr):
    if not isinstance(expr, str):
        raise ValueError(f"The formula must be a string; got {type(expr).__name__}.")
    if len(expr) > MAX_LENGTH:
        raise ValueError(f"The formula has {len(expr)} characters; the limit is {MAX_LENGTH}. Shorten it.")
    for i, ch in enumerate(expr):
        if not ch.isascii():
            # Python's parser NFKC-normalizes names, so a fullwidth 'ｅｘｐ' would become 'exp'
            raise ValueError(
                f"Non-ASCII character {ch!r} (U+{ord(ch):04X}) at position {i}; type the formula "
                "in plain ASCII (look-alike letters are refused)."
            )
        if ch not in _ALLOWED_CHARS:
            hint = _CHAR_HINTS.get(ch, f"use only {_ALLOWED_TEXT}")
            raise ValueError(f"Character {ch!r} at position {i} is not allowed in a kernel formula; {hint}.")
    src = expr.strip()
    if not src:
        raise ValueError("The formula is empty; type one, e.g. exp(-g * norm(x - z)**2).")
    return src


def _check_params(params):
    values = {}
    for name, value in params.items():
        if (
            not name.isidentifier()
            or not name.isascii()
            or keyword.iskeyword(name)
            or name.startswith("_")
            or name in VARIABLES
            or name in FUNCTIONS
        ):
            raise ValueError(
                f"Parameter name {name!r} is not allowed: use a plain name that does not start with '_' "
                f"and is not one of {', '.join(VARIABLES + tuple(FUNCTIONS))}."
            )
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"Parameter {name} must be a real number; got {value!r}.")
        values[name] = np.float64(check_real(value, name))
    return values


def _parse(src):
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError as exc:
        raise ValueError(
            f"The formula is not valid: {exc.msg} (column {exc.offset}). "
            "A valid one looks like exp(-g * norm(x - z)**2)."
        ) from None
    except (RecursionError, MemoryError):
        raise ValueError(f"The formula is nested too deeply; the limit is {MAX_DEPTH} levels.") from None
    # iterative walk: the recursive builder below only ever sees small, shallow trees
    count, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES or depth > MAX_DEPTH:
            raise ValueError(
                f"The formula is too large (limits: {MAX_NODES} syntax nodes, {MAX_DEPTH} levels of nesting)."
            )
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def _finite(value):
    """value as a float64, or None where it has none (an int literal such as 0xfff…f beyond float64's range raises
    OverflowError in float())."""
    try:
        value = np.float64(float(value))
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


class _Builder:
    """Checks each node against the allow-list and returns (kind, fn) with fn(X, Y) -> array."""

    def __init__(self, src, params):
        self.src, self.params = src, params
        self.vector_ops = 0   # operations that make an (n, m, d) array
        self.scalar_ops = 0   # operations that make an (n, m) array

    def refuse(self, node, what):
        piece = ast.get_source_segment(self.src, node) or type(node).__name__
        if len(piece) > 40:
            piece = piece[:37] + "..."
        return ValueError(f"{piece!r} is not allowed in a kernel formula: {what}. Use only {_ALLOWED_TEXT}.")

    def build(self, node):
        handler = {
            ast.Name: self.name,
            ast.Constant: self.constant,
            ast.UnaryOp: self.unary,
            ast.BinOp: self.binop,
            ast.Call: self.call,
        }.get(type(node))
        if handler is None:
            raise self.refuse(node, _NODE_NAMES.get(type(node), f"{type(node).__name__} syntax"))
        kind, fn = handler(node)
        if isinstance(node, (ast.Name, ast.Constant)):
            return kind, fn         # views and scalars: no array is made
        if kind == _VECTOR or (isinstance(node, ast.Call) and node.func.id in ("dot", "norm")):
            self.vector_ops += 1    # dot and norm of general vectors make a vector product first
        else:
            self.scalar_ops += 1
        return kind, fn

    def name(self, node):
        if node.id == "x":
            return _VECTOR, lambda X, Y: X[:, None, :]
        if node.id == "z":
            return _VECTOR, lambda X, Y: Y[None, :, :]
        if node.id in FUNCTIONS:
            raise self.refuse(node, f"{node.id} is a function; call it as {node.id}(...)")
        if node.id in self.params:
            value = self.params[node.id]
            return _SCALAR, lambda X, Y: value
        known = ", ".join(sorted(self.params)) or "none"
        raise self.refuse(node, f"unknown name {node.id!r} (parameters given: {known})")

    def constant(self, node):
        value = node.value
        # exact types: bool is an int subclass, and str/bytes/complex/None are not numbers here
        if type(value) not in (int, float):
            raise self.refuse(node, f"constants of type {type(value).__name__} (only int and float numbers)")
        value = _finite(value)
        if value is None:
            raise self.refuse(node, "a number too large for float64")
        return _SCALAR, lambda X, Y: value

    def unary(self, node):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise self.refuse(node, "the only unary operators are - and +")
        kind, f = self.build(node.operand)
        if isinstance(node.op, ast.UAdd):
            return kind, f
        return kind, lambda X, Y: -f(X, Y)

    def exponent(self, node):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            p = self.exponent(node.operand)
            return -p if isinstance(node.op, ast.USub) else p
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            p = _finite(node.value)
            if p is None:
                raise self.refuse(node, f"exponents are limited to |p| <= {MAX_POWER}")
        elif isinstance(node, ast.Name) and node.id in self.params:
            p = float(self.params[node.id])
        else:
            raise self.refuse(node, "the exponent of ** must be a number or a parameter")
        if not abs(p) <= MAX_POWER:
            raise self.refuse(node, f"exponents are limited to |p| <= {MAX_POWER}")
        return p

    def binop(self, node):
        op = type(node.op)
        if op not in _OPERATORS:
            raise self.refuse(node, f"the operator {type(node.op).__name__}; only + - * / ** are")
        if op is ast.Pow:
            kind, f = self.build(node.left)
            p = self.exponent(node.right)
            return kind, lambda X, Y: np.power(f(X, Y), p)
        (lk, lf), (rk, rf) = self.build(node.left), self.build(node.right)
        if op in (ast.Add, ast.Sub):
            if lk != rk:
                raise self.refuse(node, "adding a vector and a number (make the vector a number with dot or norm)")
            ufunc = np.add if op is ast.Add else np.subtract
            return lk, lambda X, Y: ufunc(lf(X, Y), rf(X, Y))
        if lk == rk == _VECTOR:
            raise self.refuse(node, f"vector {_OPERATORS[op]} vector (write dot(u, v) for the inner product)")
        if op is ast.Div and rk == _VECTOR:
            raise self.refuse(node, "dividing by a vector")
        ufunc = np.multiply if op is ast.Mult else np.divide
        if lk == rk == _SCALAR:
            return _SCALAR, lambda X, Y: ufunc(lf(X, Y), rf(X, Y))
        # a scalar per pair (n, m) scales every component of a vector (n, m, d)
        lx = (lambda X, Y: np.expand_dims(lf(X, Y), -1)) if lk == _SCALAR else lf
        rx = (lambda X, Y: np.expand_dims(rf(X, Y), -1)) if rk == _SCALAR else rf
        return _VECTOR, lambda X, Y: ufunc(lx(X, Y), rx(X, Y))

    def call(self, node):
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in FUNCTIONS:
            raise self.refuse(node, "only dot, norm, exp, tanh, sqrt and abs can be called")
        if node.keywords:
            raise self.refuse(node, "keyword arguments")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse(arg, "starred arguments")
        if len(node.args) != FUNCTIONS[func.id]:
            raise self.refuse(node, f"{func.id} takes {FUNCTIONS[func.id]} argument(s), got {len(node.args)}")
        args = [self.build(arg) for arg in node.args]
        kinds = [kind for kind, _ in args]
        if func.id in _ELEMENTWISE:
            g, (kind, f) = _ELEMENTWISE[func.id], args[0]
            return kind, lambda X, Y: g(f(X, Y))
        if _SCALAR in kinds:
            raise self.refuse(node, f"{func.id} of a number; it takes vectors such as x, z or x - z")
        names = [arg.id if isinstance(arg, ast.Name) else None for arg in node.args]
        if func.id == "dot":
            if set(names) == {"x", "z"}:
                return _SCALAR, lambda X, Y: X @ Y.T
            (_, u), (_, v) = args
            return _SCALAR, lambda X, Y: np.sum(u(X, Y) * v(X, Y), axis=-1)
        arg = node.args[0]
        if (
            isinstance(arg, ast.BinOp)
            and isinstance(arg.op, ast.Sub)
            and all(isinstance(side, ast.Name) for side in (arg.left, arg.right))
            and {arg.left.id, arg.right.id} == {"x", "z"}
        ):
            return _SCALAR, lambda X, Y: distances(X, Y)
        u = args[0][1]
        return _SCALAR, lambda X, Y: np.sqrt(np.sum(u(X, Y) ** 2, axis=-1))


def parse_kernel(expr, /, **params):
    """Turn a kernel formula into k(X, Y=None) -> Gram without running Python.

    ``params`` are the numbers the formula names, e.g. ``parse_kernel("(1 + dot(x, z))**p", p=3)``.
    Anything outside the language (see the module docstring) raises ``ValueError`` naming the
    offending piece; so does k when the formula gives NaN or inf. The returned k carries
    ``k.expr`` and ``k.params``.
    """
    src = _check_text(expr)
    values = _check_params(params)
    builder = _Builder(src, values)
    kind, fn = builder.build(_parse(src).body)
    if kind != _SCALAR:
        raise ValueError(
            f"The formula {src!r} gives a vector for each pair (x, z); a kernel gives a number. "
            "Use dot() or norm(), e.g. dot(x, z) or norm(x - z)."
        )

    def k(X, Y=None):
        X, Y = check_pair(X, Y)
        (n, d), m = X.shape, Y.shape[0]
        if n * m * d > MAX_ELEMENTS:
            raise ValueError(
                f"X and Y give n·m·d = {n}·{m}·{d} = {n * m * d:,} values; the limit is {MAX_ELEMENTS:,}. "
                "Use fewer points."
            )
        work = n * m * (d * builder.vector_ops + builder.scalar_ops)
        if work > MAX_WORK:
            raise ValueError(
                f"This formula on {n} × {m} points in {d} dimensions computes {work:,} values; the limit is "
                f"{MAX_WORK:,}. Use fewer points, or fewer vector operations (dot(x, z) and norm(x - z) are cheap)."
            )
        # blocks of X's and Y's rows small enough that no (rows, cols, d) temporary exceeds CHUNK_ELEMENTS
        cols = min(m, max(1, CHUNK_ELEMENTS // d))
        rows = min(n, max(1, CHUNK_ELEMENTS // (cols * d)))
        K = np.empty((n, m))
        # overflow becomes inf and invalid operations NaN; both are reported below
        with np.errstate(all="ignore"):
            for i in range(0, n, rows):
                for j in range(0, m, cols):
                    K[i : i + rows, j : j + cols] = fn(X[i : i + rows], Y[j : j + cols])   # broadcasts
        bad = ~np.isfinite(K)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(
                f"The formula gave non-finite values (NaN or inf) for {int(bad.sum())} of {n * m} pairs, "
                f"first at x = {np.round(X[i], 4).tolist()}, z = {np.round(Y[j], 4).tolist()}; "
                "look for overflow (exp of a large number, a big power), division by zero or sqrt of a negative number."
            )
        return K

    k.expr, k.params = src, dict(values)
    k.__name__ = "formula_kernel"
    k.__doc__ = f"k(x, z) = {src}"
    return k
