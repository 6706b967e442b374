"""lab.memo: one call per distinct input, whatever objects carry it; shared results frozen; a bounded memory."""

import numpy as np
import pytest

from lab.memo import memo


def counting(max_entries=64):
    calls = []

    def builder(*args, **kwargs):
        calls.append((args, kwargs))
        return object()

    return memo(max_entries=max_entries)(builder), calls


def test_equal_arrays_in_new_objects_hit_and_any_changed_value_misses():
    build, calls = counting()
    Z = np.arange(12.0).reshape(3, 4)
    first = build(Z, [np.ones(2), 0.5], name="f")
    assert build(Z.copy(), [np.ones(2), 0.5], name="f") is first
    assert len(calls) == 1
    changed = Z.copy()
    changed[2, 3] += 1e-12
    for args, kwargs in [((changed, [np.ones(2), 0.5]), {"name": "f"}),
                         ((Z, [np.ones(2), 0.25]), {"name": "f"}),
                         ((Z.reshape(4, 3), [np.ones(2), 0.5]), {"name": "f"}),
                         ((Z.astype(np.float32), [np.ones(2), 0.5]), {"name": "f"}),
                         ((Z, [np.ones(2), 0.5]), {"name": "g"})]:
        assert build(*args, **kwargs) is not first
    assert len(calls) == 6


def test_equal_numbers_of_different_types_are_different_inputs():
    build, calls = counting()
    assert build(1) is not build(1.0)
    assert build(True) is not build(1)
    assert len(calls) == 3


def test_the_memory_forgets_the_least_recently_used():
    build, calls = counting(max_entries=2)
    a, b = build(1), build(2)
    assert build(1) is a           # 1 is now the most recent
    build(3)                       # evicts 2
    assert build(1) is a and build(2) is not b
    assert len(build.memory) == 2


def test_an_argument_it_cannot_key_raises():
    build, _ = counting()
    for unhashable in ({1, 2}, bytearray(b"x")):
        with pytest.raises(TypeError):
            build(unhashable)


def test_results_are_frozen_so_one_session_cannot_change_anothers():
    @memo()
    def fit(n):
        return {"alpha": np.arange(float(n)), "parts": {"w": np.ones(2)}, "warnings": ["w1"], "n": n}

    result = fit(3)
    with pytest.raises(ValueError, match="read-only"):
        result["alpha"][0] = 9.0
    with pytest.raises(ValueError, match="read-only"):
        result["parts"]["w"] += 1.0
    with pytest.raises(TypeError):
        result["n"] = 4
    with pytest.raises(TypeError):
        result["parts"]["w"] = None
    assert result["warnings"] == ("w1",)
    assert {**result}["n"] == 3            # still reads and unpacks as a mapping
    assert fit(3) is result and fit(3)["alpha"][0] == 0.0


def test_an_exception_is_raised_every_time_and_never_remembered():
    calls = []

    @memo()
    def fit(x):
        calls.append(x)
        if x < 0:
            raise ValueError("x must be >= 0; pick a larger x")
        return x

    for _ in range(2):
        with pytest.raises(ValueError, match="larger x"):
            fit(-1)
    assert calls == [-1, -1] and not fit.memory


def test_a_call_made_while_the_same_call_runs_waits_for_its_result_instead_of_computing_it_again():
    import threading
    import time

    calls, started = [], threading.Event()

    @memo()
    def slow(x):
        calls.append(x)
        started.set()
        time.sleep(0.3)
        return np.full(3, x)

    results = [None, None]

    def run(k):
        results[k] = slow(2.0)

    first = threading.Thread(target=run, args=(0,))
    first.start()
    started.wait(5)
    second = threading.Thread(target=run, args=(1,))
    second.start()
    first.join(5)
    second.join(5)
    assert calls == [2.0]
    assert results[0] is results[1]


def test_a_waiting_call_computes_again_when_the_one_it_waited_for_raised():
    import threading
    import time

    calls = []

    @memo()
    def flaky(x):
        calls.append(x)
        if len(calls) == 1:
            time.sleep(0.2)
            raise ValueError("the first call fails")
        return x + 1

    errors, results = [], []

    def run():
        try:
            results.append(flaky(1))
        except ValueError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    threads[0].start()
    time.sleep(0.05)
    threads[1].start()
    for t in threads:
        t.join(5)
    assert len(errors) == 1 and results == [2] and len(calls) == 2
