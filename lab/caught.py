"""The one way the compute modules collect a solver's warnings, so the page can show them to the student."""

import contextlib
import warnings


@contextlib.contextmanager
def caught_warnings():
    """Collect every warning raised inside into the yielded list, as messages (they reach the page, not the log)."""
    messages = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield messages
    messages.extend(str(w.message) for w in caught)
