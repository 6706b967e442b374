"""The student's own points and their codec for the link (`?pts=`). Pure Python (no Streamlit), tested alone.

A point is (x1, x2, y) with coordinates rounded to DECIMALS places and y = −1, +1 or 2 (the third class, trained on
by lesson 3's one-vs-rest and left out by the binary lessons, lab/data.py); the link holds `x1_x2_y` parts joined
by `~`, at most MAX_USER_POINTS of them; a downloaded CSV holds `x1,x2,y` lines (to_csv).
"""

import re

from datasets.upload import DECIMALS, HEADER, MAX_ABS_COORD
from lab.state import MAX_USER_POINTS

# ASCII digits only (\d would also take "١"); fullmatch, since $ would let a trailing newline through
_POINT = re.compile(r"(-?\d{1,3}(?:\.\d{1,3})?)_(-?\d{1,3}(?:\.\d{1,3})?)_(-1|1|2)", re.ASCII)


def encode(points):
    """The link's text for a tuple of points."""
    return "~".join(f"{x1:.{DECIMALS}f}_{x2:.{DECIMALS}f}_{int(y)}" for x1, x2, y in points)


def to_csv(points):
    """The points as the CSV text the sidebar's upload reads back to the same points (datasets/upload.py):
    the header x1,x2,y, then one line per point with the link's DECIMALS places and a label of -1 or 1."""
    return "".join([",".join(HEADER) + "\n"] + [f"{x1:.{DECIMALS}f},{x2:.{DECIMALS}f},{int(y)}\n"
                                                 for x1, x2, y in points])


def read(raw):
    """(points, notice): the points a link's text holds, as the upload would take them (within ±MAX_ABS_COORD, at
    most MAX_USER_POINTS), and None or a sentence saying what was left out and why."""
    parts = raw.split("~", MAX_USER_POINTS)[:MAX_USER_POINTS + 1] if raw else []
    extra, parts = [p for p in parts[MAX_USER_POINTS:] if p], parts[:MAX_USER_POINTS]
    matches = [_POINT.fullmatch(p) for p in parts]
    found = [(round(float(m[1]), DECIMALS) + 0.0, round(float(m[2]), DECIMALS) + 0.0, int(m[3]))
             for m in matches if m is not None]
    kept = tuple(p for p in found if max(abs(p[0]), abs(p[1])) <= MAX_ABS_COORD)
    left_out = []
    if len(found) < len(parts):
        left_out.append(f"{len(parts) - len(found)} part(s) that are not points x1_x2_y (y = -1, 1 or 2)")
    if len(kept) < len(found):
        left_out.append(f"{len(found) - len(kept)} point(s) outside ±{MAX_ABS_COORD:g}")
    if extra:
        left_out.append(f"every point after the first {MAX_USER_POINTS} (the most a view holds)")
    notice = f"The link's points: left out {'; '.join(left_out)}." if left_out else None
    return kept, notice


def decode(raw):
    """The points a link's text holds (read), without the notice."""
    return read(raw)[0]


def point(x1, x2, y):
    """(x1, x2, y) as the link stores it: rounded, y as an int; ValueError outside ±MAX_ABS_COORD."""
    x1, x2 = round(float(x1), DECIMALS) + 0.0, round(float(x2), DECIMALS) + 0.0
    if not max(abs(x1), abs(x2)) <= MAX_ABS_COORD:
        raise ValueError(f"Points must lie within ±{MAX_ABS_COORD:g} on both axes; ({x1:g}, {x2:g}) does not.")
    return x1, x2, int(y)


def added(points, x1, x2, y):
    """points with (x1, x2, y) appended; ValueError at MAX_USER_POINTS."""
    if len(points) >= MAX_USER_POINTS:
        raise ValueError(f"At most {MAX_USER_POINTS} points of your own; clear some first.")
    return (*points, point(x1, x2, y))


def moved(points, i, x1, x2):
    """points with point i moved to (x1, x2), its class kept; unchanged when i is not a point's index;
    ValueError outside ±MAX_ABS_COORD."""
    if not 0 <= i < len(points):
        return points
    return (*points[:i], point(x1, x2, points[i][2]), *points[i + 1:])


def removed(points, i):
    """points without point i; unchanged when i is not a point's index."""
    return points[:i] + points[i + 1:] if 0 <= i < len(points) else points
