"""Markdown building blocks: number formats, code spans, tables and cells."""
import math
import re

from .runs import has_figure, is_estimate

DASH = "—"


def shape_label(shape):
    m, n, k = shape[:3]
    label = str(m) if m == n == k else f"{m}x{n}x{k}"
    return label if len(shape) == 3 else f"{label} {shape[3]}"



def fmt_gflops(value):
    if value is None:
        return DASH
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def fmt_ratio(value):
    """Two decimals, or two significant digits below 0.1 so tiny ratios do not round to 0."""
    if value is None:
        return DASH
    digits = 2 if value >= 0.1 else min(6, 1 - math.floor(math.log10(value)))
    return f"{value:.{digits}f}×"


def fmt_ms(value):
    if value is None:
        return DASH
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.3f}"


def fmt_error(value):
    if value is None:
        return DASH
    return "0" if value == 0 else f"{value:.3g}"


def fmt_plain(value):
    if value is None or value == "":
        return DASH
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def code(text):
    """An inline code span that survives backticks inside `text`."""
    text = str(text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text):
    """A table cell: a | or a line break in it would end the cell or the row."""
    return re.sub(r"\r\n|\r|\n", " ", str(text).replace("|", "\\|"))


def table(header, rows):
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return lines + [""]


def marked(row, text):
    """An estimate's figure marked as one ("~1.23 est."); any other text as it is."""
    return f"~{text} est." if is_estimate(row) and text != DASH else text


def status_text(row, figure_text):
    """What a table cell shows for one measurement: its figure (an estimate's marked), else its status."""
    if row is None:
        return DASH
    return marked(row, figure_text) if has_figure(row) else str(row.get("status") or DASH)

