"""Toy data generators: shapes, labels, determinism, the notes' rules and exact examples."""

import numpy as np
import pytest
from sklearn.datasets import make_circles, make_moons

import datasets
from datasets import DATASET_INFO, DATASETS, MAX_NOISE, MAX_SAMPLES, MIN_SAMPLES, make_dataset

CLASSIFICATION = [name for name, info in DATASET_INFO.items() if info.task == "classification"]
RANDOM = [name for name in DATASETS if name != "lfd_toy"]


def test_registry_and_metadata_cover_the_same_datasets():
    assert set(DATASETS) == set(DATASET_INFO)
    assert {info.task for info in DATASET_INFO.values()} == {"classification", "multiclass", "regression"}
    for name, info in DATASET_INFO.items():
        assert MIN_SAMPLES <= info.default_n <= MAX_SAMPLES
        assert 0.0 <= info.default_noise <= MAX_NOISE
        assert getattr(datasets, name) is DATASETS[name]


@pytest.mark.parametrize("name", CLASSIFICATION)
@pytest.mark.parametrize("n", [MIN_SAMPLES, 3, 7, 200])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_classification_sets_are_float_2d_with_both_labels(name, n, seed):
    X, y = DATASETS[name](n, noise=0.2, random_state=seed)
    expected_n = n if DATASET_INFO[name].uses_n else DATASET_INFO[name].default_n
    assert X.dtype == np.float64 and X.shape == (expected_n, 2)
    assert y.dtype == np.float64 and y.shape == (expected_n,)
    assert np.all(np.isfinite(X))
    assert set(np.unique(y)) == {-1.0, 1.0}
    if DATASET_INFO[name].uses_n:
        assert np.count_nonzero(y == -1.0) in (n // 2, n - n // 2)


@pytest.mark.parametrize("n", [3, 7, 200])
def test_three_blobs_have_three_classes_of_near_equal_size(n):
    X, y = datasets.blobs3(n, noise=0.3, random_state=1)
    assert X.shape == (n, 2) and y.shape == (n,) and np.all(np.isfinite(X))
    counts = [np.count_nonzero(y == c) for c in datasets.THREE_CLASSES]
    assert sum(counts) == n and max(counts) - min(counts) <= 1
    assert DATASET_INFO["blobs3"].task == "multiclass"


@pytest.mark.parametrize("name", RANDOM)
def test_same_random_state_gives_the_same_data_and_another_differs(name):
    X1, y1 = DATASETS[name](50, noise=0.1, random_state=5)
    X2, y2 = DATASETS[name](50, noise=0.1, random_state=5)
    X3, _ = DATASETS[name](50, noise=0.1, random_state=6)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(X1, X3)


@pytest.mark.parametrize("seed", range(5))
def test_circle_rule_labels_are_sign_of_x1_squared_plus_x2_squared_minus_one(seed):
    X, y = datasets.circle_rule(300, random_state=seed, gap=0.1)
    r2 = X[:, 0] ** 2 + X[:, 1] ** 2
    np.testing.assert_array_equal(y, np.sign(r2 - 1.0))
    assert np.all(np.abs(X) <= 2.0)
    # the notes' plane w = (−1, 1, 1) on φ = (1, x₁², x₂²) separates with margin ≥ gap
    phi = np.column_stack([np.ones(len(y)), X**2])
    assert np.all(y * (phi @ np.array([-1.0, 1.0, 1.0])) >= 0.1)


def test_circles_and_moons_are_scikit_learn_generators_with_signed_labels():
    X, y = datasets.circles(101, noise=0.05, random_state=4)
    Xs, ys = make_circles(101, noise=0.05, factor=0.5, random_state=4)
    np.testing.assert_array_equal(X, Xs)
    np.testing.assert_array_equal(y, np.where(ys == 1, -1.0, 1.0))
    X, y = datasets.moons(101, noise=0.05, random_state=4)
    Xs, ys = make_moons(101, noise=0.05, random_state=4)
    np.testing.assert_array_equal(X, Xs)
    np.testing.assert_array_equal(y, 2.0 * ys - 1.0)


def test_noise_free_xor_and_linear_follow_their_rules():
    X, y = datasets.xor(200, noise=0.0, random_state=0)
    np.testing.assert_array_equal(y, np.sign(X[:, 0] * X[:, 1]))
    assert np.all(np.abs(X) >= 0.1)
    X, y = datasets.linear(200, noise=0.0, random_state=0, gap=0.3)
    assert np.all(y * (X[:, 0] + X[:, 1]) / np.sqrt(2.0) >= 0.3)


def test_lfd_toy_is_the_fixed_four_point_example():
    X, y = datasets.lfd_toy(100, noise=0.5, random_state=3)
    np.testing.assert_array_equal(X, [[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
    np.testing.assert_array_equal(y, [-1.0, -1.0, 1.0, 1.0])


def test_house_prices_are_one_dimensional_real_targets_on_a_cubic_trend():
    X, y = datasets.house_prices(25, noise=0.3, random_state=0)
    assert X.shape == (25, 1) and X.dtype == np.float64
    assert y.shape == (25,) and y.dtype == np.float64 and len(np.unique(y)) == 25
    assert np.all(np.abs(X) <= 1.0)
    X, y = datasets.house_prices(40, noise=0.0, random_state=1)
    np.testing.assert_allclose(np.polyfit(X[:, 0], y, 3), [0.8, 0.5, 2.0, 4.0], rtol=1e-9, atol=1e-9)


def test_make_dataset_uses_the_metadata_defaults():
    X, y = make_dataset("moons", random_state=0)
    X2, y2 = datasets.moons(DATASET_INFO["moons"].default_n, noise=DATASET_INFO["moons"].default_noise, random_state=0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_samples": 1}, f"n_samples must be between {MIN_SAMPLES} and {MAX_SAMPLES}"),
        ({"n_samples": MAX_SAMPLES + 1}, f"n_samples must be between {MIN_SAMPLES} and {MAX_SAMPLES}"),
        ({"n_samples": 10.5}, "n_samples must be a whole number"),
        ({"noise": -0.1}, "noise must be >= 0"),
        ({"noise": MAX_NOISE + 0.1}, "Pick a smaller noise"),
        ({"noise": np.nan}, "noise must be a finite"),
        ({"random_state": -1}, "random_state must be between"),
    ],
)
def test_bad_arguments_raise_value_error_saying_the_fix(name, kwargs, match):
    args = {"n_samples": 10, "noise": 0.1, "random_state": 0, **kwargs}
    n = args.pop("n_samples")
    with pytest.raises(ValueError, match=match):
        DATASETS[name](n, **args)


def test_unknown_dataset_and_bad_gap_raise_value_error():
    with pytest.raises(ValueError, match="choose one of"):
        make_dataset("swiss_roll")
    with pytest.raises(ValueError, match="gap must be < 1"):
        datasets.circle_rule(10, gap=1.0)
    with pytest.raises(ValueError, match="gap must be >= 0"):
        datasets.linear(10, gap=-0.1)
