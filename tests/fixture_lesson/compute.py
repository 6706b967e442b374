"""The fixture lesson's compute module (imported once per server process, like every lesson's)."""

from lessons.memo import memo


@memo()
def doubled(x):
    return 2 * x
