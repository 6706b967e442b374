"""common.cached_figure: one build per distinct input, whatever objects carry it, and a bounded memory."""

import numpy as np
import pytest

from lessons.common import cached_figure


def counting(max_entries=64):
    calls = []

    def builder(*args, **kwargs):
        calls.append((args, kwargs))
        return object()

    return cached_figure(builder, max_entries=max_entries), calls


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
