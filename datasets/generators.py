"""Toy data sets for the lessons, all with one signature.

    name(n_samples=..., *, noise=..., random_state=None) -> (X, y)

X is float64 of shape (n, 2) ((n, 1) for the house prices). Classification labels y are
the floats -1.0 and +1.0, both always present: every generator draws n // 2 points of
one class and n - n // 2 of the other (then shuffles), so n = 2 already gives both.
noise is the standard deviation of Gaussian jitter unless a docstring says otherwise.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.datasets import make_blobs, make_circles, make_moons

from kernel_core.validation import check_int, check_positive

MIN_SAMPLES = 2
MAX_SAMPLES = 2_000  # app limit: a 2000 x 2000 Gram matrix is 32 MB and fits fast enough
MAX_NOISE = 2.0


def _check(n_samples, noise, random_state):
    n = check_int(n_samples, "n_samples", low=MIN_SAMPLES, high=MAX_SAMPLES)
    noise = check_positive(noise, "noise", allow_zero=True)
    if noise > MAX_NOISE:
        raise ValueError(f"noise must be at most {MAX_NOISE}; got {noise!r}. Pick a smaller noise.")
    if random_state is not None:
        random_state = check_int(random_state, "random_state", low=0, high=2**32 - 1)
    return n, noise, random_state


def _signed(y01, negative):
    """Map 0/1 labels to -1/+1 floats, sending the class `negative` to -1."""
    return np.where(y01 == negative, -1.0, 1.0)


def _balanced(draw, n, rng):
    """Stack draw(label, count, rng) for n//2 points of -1 and n - n//2 of +1, shuffled."""
    counts = {-1.0: n // 2, 1.0: n - n // 2}
    X = np.vstack([draw(label, m, rng) for label, m in counts.items()])
    y = np.repeat(list(counts), list(counts.values()))
    order = rng.permutation(n)
    return X[order], y[order]


def _rejection(keep, m, rng, low=-2.0, high=2.0):
    """m points uniform on [low, high]² among those where keep(points) is True."""
    out = np.empty((0, 2))
    while out.shape[0] < m:
        P = rng.uniform(low, high, size=(2 * m + 16, 2))
        out = np.vstack([out, P[keep(P)]])
    return out[:m]


def circles(n_samples=200, *, noise=0.1, random_state=None):
    """scikit-learn's make_circles(factor=0.5): inner circle (radius ½) is -1, outer (1) is +1."""
    n, noise, seed = _check(n_samples, noise, random_state)
    X, y01 = make_circles(n_samples=n, noise=noise, factor=0.5, random_state=seed)
    return X.astype(np.float64), _signed(y01, negative=1)


def circle_rule(n_samples=200, *, noise=0.0, random_state=None, gap=0.1):
    """The notes' circle: x uniform on [-2, 2]², y = sign(x₁² + x₂² − 1) (Lecture 8, §1).

    Points with |x₁² + x₂² − 1| < gap are redrawn, so in the lift φ = (1, x₁², x₂²) the
    plane w = (−1, 1, 1) separates the classes with |w·φ(x)| ≥ gap. Labels are exact;
    noise is validated but not used.
    """
    n, _, seed = _check(n_samples, noise, random_state)
    gap = check_positive(gap, "gap", allow_zero=True)
    if gap >= 1.0:
        raise ValueError(f"gap must be < 1 so the unit disk keeps points; got {gap!r}.")

    def draw(label, m, rng):
        return _rejection(lambda P: label * (np.sum(P**2, axis=1) - 1.0) >= gap, m, rng)

    return _balanced(draw, n, np.random.default_rng(seed))


def moons(n_samples=200, *, noise=0.15, random_state=None):
    """scikit-learn's make_moons: the upper moon is -1, the lower one +1."""
    n, noise, seed = _check(n_samples, noise, random_state)
    X, y01 = make_moons(n_samples=n, noise=noise, random_state=seed)
    return X.astype(np.float64), _signed(y01, negative=0)


def xor(n_samples=200, *, noise=0.1, random_state=None):
    """XOR: y = sign(x₁ x₂) before jitter; |x₁|, |x₂| uniform on [0.1, 1] (a gap at the axes)."""
    n, noise, seed = _check(n_samples, noise, random_state)

    def draw(label, m, rng):
        mag = rng.uniform(0.1, 1.0, size=(m, 2))
        s1 = rng.choice([-1.0, 1.0], size=m)
        return mag * np.column_stack([s1, label * s1]) + noise * rng.standard_normal((m, 2))

    return _balanced(draw, n, np.random.default_rng(seed))


def blobs(n_samples=200, *, noise=0.5, random_state=None):
    """scikit-learn's make_blobs: centers (−1, −1) is -1, (1, 1) is +1; noise = cluster_std."""
    n, noise, seed = _check(n_samples, noise, random_state)
    X, y01 = make_blobs(n_samples=n, centers=[(-1.0, -1.0), (1.0, 1.0)], cluster_std=noise,
                        random_state=seed)
    return X.astype(np.float64), _signed(y01, negative=0)


THREE_CLASSES = (-1.0, 1.0, 2.0)


def blobs3(n_samples=200, *, noise=0.5, random_state=None):
    """Three Gaussian blobs for one-vs-rest (lesson 3, kernel mode): centres (−1.5, −1) → −1, (1.5, −1) → +1 and
    (0, 1.5) → 2, noise = their standard deviation; class sizes differ by at most one, shuffled. The only dataset
    with a third class: the binary lessons refuse it."""
    n, noise, seed = _check(n_samples, noise, random_state)
    rng = np.random.default_rng(seed)
    centres = np.array([(-1.5, -1.0), (1.5, -1.0), (0.0, 1.5)])
    counts = tuple((n + i) // 3 for i in range(3))    # as even as n allows; n = 2 gives classes +1 and 2
    X = np.vstack([c + noise * rng.standard_normal((m, 2)) for c, m in zip(centres, counts)])
    y = np.repeat(THREE_CLASSES, counts)
    order = rng.permutation(n)
    return X[order], y[order]


def spirals(n_samples=200, *, noise=0.05, random_state=None):
    """Two interleaved spirals r = s, angle = 3πs (+π for class -1), s ∈ [0.1, 1]."""
    n, noise, seed = _check(n_samples, noise, random_state)

    def draw(label, m, rng):
        # sqrt spreads points evenly along the arc, which lengthens with r
        s = np.sqrt(rng.uniform(0.01, 1.0, size=m))
        angle = 3.0 * np.pi * s + (np.pi if label < 0 else 0.0)
        arm = 1.5 * s[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
        return arm + noise * rng.standard_normal((m, 2))

    return _balanced(draw, n, np.random.default_rng(seed))


def linear(n_samples=200, *, noise=0.0, random_state=None, gap=0.3):
    """Linearly separable through the origin: y = sign(x₁ + x₂) on [-2, 2]², x uniform with
    |x₁ + x₂|/√2 ≥ gap (margin ≥ gap before jitter), then Gaussian jitter of sd noise."""
    n, noise, seed = _check(n_samples, noise, random_state)
    gap = check_positive(gap, "gap", allow_zero=True)
    if gap >= 1.0:
        raise ValueError(f"gap must be < 1 so both sides keep points; got {gap!r}.")

    def draw(label, m, rng):
        P = _rejection(lambda P: label * (P[:, 0] + P[:, 1]) / np.sqrt(2.0) >= gap, m, rng)
        return P + noise * rng.standard_normal((m, 2))

    return _balanced(draw, n, np.random.default_rng(seed))


def lfd_toy(n_samples=4, *, noise=0.0, random_state=None):
    """Learning From Data's 4-point example (fixed; n, noise and seed are validated, unused).

    Hard-margin SVM with offset: α* = (½, ½, 1, 0), w = (1, −1), b = −1, margin 1/√2.
    """
    _check(n_samples, noise, random_state)
    X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    return X, y


def house_prices(n_samples=30, *, noise=0.3, random_state=None):
    """1-D regression for the cubic feature map φ(x) = (1, x, x², x³) (house price vs area).

    Units: x = (living area − 2000 ft²) / 1500 ft², uniform on [−1, 1] (500 to 3500 ft²);
    y = price in $100 000 = 4 + 2x + 0.5x² + 0.8x³ (increasing, $170k to $730k) plus
    Gaussian noise of sd noise. Both stay O(1), so gradient descent on the cubic
    features is well conditioned.
    """
    n, noise, seed = _check(n_samples, noise, random_state)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, size=n)
    y = 4.0 + 2.0 * x + 0.5 * x**2 + 0.8 * x**3 + noise * rng.standard_normal(n)
    return x[:, None], y


@dataclass(frozen=True)
class DatasetInfo:
    """What the sidebar needs to offer a data set."""

    label: str
    task: str  # "classification" (y = ±1), "multiclass" (y in THREE_CLASSES) or "regression"
    uses_n: bool
    uses_noise: bool
    default_n: int
    default_noise: float


DATASETS = {
    "circles": circles,
    "circle_rule": circle_rule,
    "moons": moons,
    "xor": xor,
    "blobs": blobs,
    "blobs3": blobs3,
    "spirals": spirals,
    "linear": linear,
    "lfd_toy": lfd_toy,
    "house_prices": house_prices,
}

DATASET_INFO = {
    "circles": DatasetInfo("Circles (scikit-learn)", "classification", True, True, 200, 0.1),
    "circle_rule": DatasetInfo("Circle rule sign(x₁² + x₂² − 1)", "classification", True, False, 200, 0.0),
    "moons": DatasetInfo("Moons", "classification", True, True, 200, 0.15),
    "xor": DatasetInfo("XOR", "classification", True, True, 200, 0.1),
    "blobs": DatasetInfo("Two Gaussian blobs", "classification", True, True, 200, 0.5),
    "blobs3": DatasetInfo("Three Gaussian blobs (3 classes)", "multiclass", True, True, 200, 0.5),
    "spirals": DatasetInfo("Two spirals", "classification", True, True, 200, 0.05),
    "linear": DatasetInfo("Linearly separable (gap)", "classification", True, True, 200, 0.0),
    "lfd_toy": DatasetInfo("Learning From Data 4-point example", "classification", False, False, 4, 0.0),
    "house_prices": DatasetInfo("House prices (1-D, cubic)", "regression", True, True, 30, 0.3),
}


def make_dataset(name, n_samples=None, *, noise=None, random_state=None):
    """Generate the data set `name`; n_samples / noise default to its DATASET_INFO values."""
    if name not in DATASETS:
        raise ValueError(f"Unknown dataset {name!r}; choose one of {sorted(DATASETS)}.")
    info = DATASET_INFO[name]
    return DATASETS[name](
        info.default_n if n_samples is None else n_samples,
        noise=info.default_noise if noise is None else noise,
        random_state=random_state,
    )
