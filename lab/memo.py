"""The pages' cache: a process-wide LRU memory of a function's results, shared by every session. Pure Python and
numpy (no Streamlit), so the compute modules that use it can be imported and tested alone.

Not st.cache_data / st.cache_resource: on every call they inspect the function's signature and hash every
argument, and st.cache_data unpickles a copy of the result on every hit, many times the cost of a hit here
(BLAKE2 digests of the arrays). Under a lecture's load that overhead is paid by every rerun, on one interpreter
(docs/PERFORMANCE.md).
"""

import collections
import dataclasses
import functools
import hashlib
import threading
import types

import numpy as np


def _digest(value):
    """A hashable stand-in for a memoized function's argument: arrays by shape, dtype and a BLAKE2 digest of
    their bytes; tuples, lists and mappings element by element; anything else as its type and itself."""
    if isinstance(value, np.ndarray):
        return value.shape, value.dtype.str, hashlib.blake2b(np.ascontiguousarray(value).data, digest_size=16).digest()
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_digest(v) for v in value)
    if isinstance(value, (dict, types.MappingProxyType)):
        return "dict", tuple((k, _digest(v)) for k, v in value.items())
    hash(value)  # a type this cache does not know raises here instead of colliding later
    return type(value).__name__, value  # 1, 1.0 and True are equal keys otherwise


def _freeze(value):
    """value made safe to share between sessions: numpy arrays read-only (in place: the memory owns them),
    dicts as read-only mappings, lists as tuples, the arrays inside result dataclasses read-only, recursively;
    anything else (a figure, a fitted model) as it is."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        return value
    if isinstance(value, dict):
        return types.MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if type(value) is tuple:
        return tuple(_freeze(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # a result dataclass is frozen itself; the arrays it holds are frozen in place
        for f in dataclasses.fields(value):
            _freeze(getattr(value, f.name))
        return value
    return value


def memo(max_entries=64):
    """Decorator: the function with a process-wide LRU memory of its last max_entries results, shared by
    every session. Results are shared, so they are frozen (_freeze): a page that tried to change one would
    fail loudly instead of changing what every other student sees. An exception is raised, not remembered. A call
    made while the same call is being computed in another thread waits for that result instead of computing it too.
    """
    def decorate(fn):
        memory = collections.OrderedDict()
        computing = {}   # key → threading.Event, set when the one computation of that key under way ends
        lock = threading.Lock()

        def store(key, result):
            result = _freeze(result)
            with lock:
                memory[key] = result
                while len(memory) > max_entries:
                    memory.popitem(last=False)
            return result

        @functools.wraps(fn)
        def call(*args, **kwargs):
            key = (_digest(args), _digest(kwargs))
            with lock:
                if key in memory:
                    memory.move_to_end(key)
                    return memory[key]
                running = computing.get(key)
                if running is None:
                    computing[key] = done = threading.Event()
            if running is not None:
                # the same call is being computed (by a live route and the rerun of the same move, or by two
                # students): wait for its result rather than compute it twice on the same cores
                running.wait()
                with lock:
                    if key in memory:
                        memory.move_to_end(key)
                        return memory[key]
                return call(*args, **kwargs)   # it raised: compute it here (and raise here)
            try:
                return store(key, fn(*args, **kwargs))
            finally:
                with lock:
                    del computing[key]
                done.set()

        def peek(*args, **kwargs):
            """The remembered result of these arguments, or None: nothing is computed."""
            with lock:
                return memory.get((_digest(args), _digest(kwargs)))

        def remember(result, *args, **kwargs):
            """Keep `result`, computed elsewhere (lab/background.py), as the result of these arguments."""
            return store((_digest(args), _digest(kwargs)), result)

        call.memory, call.peek, call.remember = memory, peek, remember
        call.key = lambda *args, **kwargs: (_digest(args), _digest(kwargs))
        return call

    return decorate
