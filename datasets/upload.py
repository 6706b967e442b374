"""A student's own points uploaded as CSV text, read strictly: nothing is eval'd and nothing is guessed.

Format: one point per line, three comma-separated numbers ``x1,x2,y``; an optional first line that is
exactly the header ``x1,x2,y``; blank lines are skipped. Coordinates are finite, at most
MAX_ABS_COORD in size, and rounded to DECIMALS places (the precision the URL keeps, so a reload
shows the same points). Labels are -1/+1, or 0/1 throughout (read as 0 -> -1, 1 -> +1); 2 is the third class
(one-vs-rest on lesson 3; the binary lessons leave its points out), with -1/+1 only.
One class alone is accepted: the points may be added to a dataset that has the other.

Reading stops as soon as a limit is passed: at most max_bytes bytes are ever read from the
source, and the rows are checked one at a time, so a file of a million lines is refused after
max_rows + 1 of them. Every problem is a ValueError that says what was found and how to fix it.
"""

import csv
import math
import re
from typing import NamedTuple

HEADER = ("x1", "x2", "y")
MAX_ABS_COORD = 10.0   # the window of the typed x1, x2 inputs in the sidebar
DECIMALS = 2           # the URL keeps points as x1_x2_y with two decimals
MAX_LINE_CHARS = 200   # a line x1,x2,y is a few dozen characters; longer ones are refused unread
# a plain decimal number in ASCII digits: float() alone would also take "nan", "inf", "1_000" and "١"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")
_NON_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class UploadedPoints(NamedTuple):
    points: tuple      # ((x1, x2, y), ...), y in {-1, +1}
    header: bool       # the file started with the header x1,x2,y
    labels_01: bool    # the file used 0/1 labels, read as -1/+1


def _size(n_bytes):
    return f"{n_bytes / 2**20:g} MB" if n_bytes >= 2**20 else f"{n_bytes / 2**10:g} KB"


def _read_text(source, max_bytes):
    """At most max_bytes bytes of source (bytes or a binary file object), decoded as UTF-8."""
    raw = bytes(source[:max_bytes + 1]) if isinstance(source, (bytes, bytearray, memoryview)) \
        else source.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ValueError(f"The file is larger than {_size(max_bytes)}; a CSV of points is a few KB. "
                         "Upload a smaller file.")
    if not raw.strip():
        raise ValueError("The file is empty; it needs lines x1,x2,y such as 0.5,-1.2,1.")
    if raw.startswith(_UTF16_BOMS):
        raise ValueError("The file is UTF-16 text; save it as 'CSV UTF-8 (comma delimited)'.")
    if b"\x00" in raw:
        raise ValueError("The file contains NUL bytes, so it is binary (a spreadsheet, an image, ...), not CSV "
                         "text. Export it as CSV (comma-separated).")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"The file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start}); "
                         "save it as 'CSV UTF-8'.") from None


def _fields(line, number):
    if len(line) > MAX_LINE_CHARS:
        raise ValueError(f"Line {number} has {len(line)} characters; a point x1,x2,y needs far fewer "
                         f"(at most {MAX_LINE_CHARS}).")
    bad = next((ch for ch in line if (ch < " " and ch != "\t") or ch == "\x7f"), None)
    if bad is not None:
        raise ValueError(f"Line {number} contains the control character U+{ord(bad):04X}, so this is not "
                         "CSV text. Export the data as CSV (comma-separated).")
    try:
        return [field.strip() for field in next(csv.reader([line], strict=True))]
    except csv.Error as exc:
        raise ValueError(f"Line {number} is not valid CSV ({exc}); write three numbers x1,x2,y.") from None


def _number(field, number, name):
    if not _NUMBER.fullmatch(field):
        if not field:
            why = "is empty"
        elif field.lower() in _NON_FINITE:
            why = f"is {field!r}, not a finite number"
        else:
            why = f"is {field[:20]!r}, not a number"
            if "\u2212" in field:
                why += " (write the minus sign as the ASCII '-')"
        raise ValueError(f"Line {number}: {name} {why}. Every field must be a plain number like -1.25.")
    value = float(field)
    if not math.isfinite(value):
        raise ValueError(f"Line {number}: {name} = {field[:20]} is too large to be a finite number.")
    return value


def _point(fields, number):
    if len(fields) != 3:
        hint = " Separate the numbers with commas." if len(fields) == 1 and re.search(r"[;\t ]", fields[0]) else ""
        raise ValueError(f"Line {number} has {len(fields)} field(s) ({','.join(fields)[:40]!r}); every point needs "
                         f"exactly three: x1,x2,y.{hint}")
    x1, x2, y = (_number(field, number, name) for field, name in zip(fields, HEADER))
    for name, value in (("x1", x1), ("x2", x2)):
        if abs(value) > MAX_ABS_COORD:
            raise ValueError(f"Line {number}: {name} = {value:g} is outside [-{MAX_ABS_COORD:g}, {MAX_ABS_COORD:g}]; "
                             "rescale the data into that window.")
    if y not in (-1.0, 0.0, 1.0, 2.0):
        raise ValueError(f"Line {number}: the label y = {fields[2]} must be -1 or +1 (or 0 and 1 throughout), "
                         "or 2 for a third class.")
    # + 0.0 turns a rounded -0.0 into 0.0
    return round(x1, DECIMALS) + 0.0, round(x2, DECIMALS) + 0.0, int(y)


def _is_header(fields):
    """A first line with a name in it (not nan/inf) is meant as a header."""
    return any(_NAME.fullmatch(field) and field.lower() not in _NON_FINITE for field in fields)


def read_points_csv(source, *, max_rows, max_bytes):
    """The points of a CSV file x1,x2,y (source: bytes or a binary file object) as UploadedPoints.

    Raises ValueError for anything else, saying what was found: more than max_bytes bytes or
    max_rows points, binary or non-UTF-8 content, a header other than x1,x2,y, a row without
    exactly three fields, a field that is not a plain finite number, a coordinate outside
    [-MAX_ABS_COORD, MAX_ABS_COORD], a label other than -1/+1/2 (or 0/1), or no point at all.
    """
    text = _read_text(source, max_bytes)
    points, header = [], False
    start = 0
    for number, match in enumerate(_LINE_BREAK.finditer(text + "\n"), start=1):
        line, start = text[start:match.start()], match.end()
        if not line.strip():
            continue
        fields = _fields(line, number)
        if not points and not header and _is_header(fields):
            if tuple(field.lower() for field in fields) != HEADER:
                raise ValueError(f"The first line is {line[:60]!r}: {len(fields)} column(s) named "
                                 f"{', '.join(repr(f[:20]) for f in fields[:6])}. The header must be exactly "
                                 "x1,x2,y, or leave it out and start with the numbers.")
            header = True
            continue
        if len(points) == max_rows:
            raise ValueError(f"The file has more than {max_rows} points (line {number} is point {max_rows + 1}); "
                             f"at most {max_rows} points of your own are kept. Remove some rows.")
        points.append(_point(fields, number))
    if not points:
        raise ValueError("The file has a header but no points; add lines x1,x2,y such as 0.5,-1.2,1."
                         if header else "The file has no points; it needs lines x1,x2,y such as 0.5,-1.2,1.")
    labels = {y for _, _, y in points}
    if {-1, 0} <= labels or {0, 2} <= labels:
        raise ValueError(f"The labels mix {', '.join(f'{v:+d}' if v else '0' for v in sorted(labels))}; use -1 and +1 "
                         "(or 0 and 1) throughout, and 2 for a third class only with -1 and +1.")
    labels_01 = 0 in labels
    if labels_01:
        points = [(x1, x2, 1 if y == 1 else -1) for x1, x2, y in points]
    return UploadedPoints(tuple(points), header, labels_01)
