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


def fmt_sig(value):
    """Three significant digits ("0.282", "1.04", "12.3"), for quartiles that two decimals would merge."""
    if value is None:
        return DASH
    digits = max(0, min(8, 2 - math.floor(math.log10(value))))
    return f"{value:.{digits}f}"


def fmt_ms(value):
    if value is None:
        return DASH
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.3f}"


def file_slug(text):
    """A name's part of a plot file name: ASCII letters, digits, '-' and '.', anything else '-', at most 60
    characters ("-" for an empty name)."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-.") else "-" for ch in str(text))[:60] or "-"


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



# ------------------------------------------------------------------------------ where each cell came from

class Sourced:
    """A table cell's text and the result row it was read from: a table whose rows came from runs of several commits
    marks the cells of all but its most common commit (render)."""
    __slots__ = ("text", "row")

    def __init__(self, text, row):
        self.text, self.row = text, row

    def __str__(self):
        return str(self.text)


# Modifier letters (there is none for q), then superscript numbers for the 26th commit and beyond.
SUPERSCRIPT_LETTERS = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"
SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def commit_mark(index):
    return SUPERSCRIPT_LETTERS[index] if index < len(SUPERSCRIPT_LETTERS) else str(index + 1).translate(
        SUPERSCRIPT_DIGITS)


def sources(rows):
    return [value for row in rows for value in row if isinstance(value, Sourced) and value.row is not None]


def commit_marks(machine, cells):
    """{commit: mark} for the cells' commits ("" for the most common, the newest on a tie) and the legend lines;
    ({}, []) where the cells all come from one commit."""
    order = {}
    for index, run in enumerate(machine.runs):
        commit = run.context.get("git_commit")
        order[commit if isinstance(commit, str) and commit.strip() else "not recorded"] = index
    counts, files = {}, {}
    for value in cells:
        commit = machine.commit(value.row)
        counts[commit] = counts.get(commit, 0) + 1
        files.setdefault(commit, set()).add(machine.file_of(value.row))
    if len(counts) < 2:
        return {}, []
    base = max(counts, key=lambda c: (counts[c], order.get(c, -1), c))
    others = sorted((c for c in counts if c != base), key=lambda c: (order.get(c, -1), c))
    marks = {base: ""}
    marks.update({commit: commit_mark(index) for index, commit in enumerate(others)})

    def files_text(commit):
        return ", ".join(code(name) for name in sorted(files[commit]))
    legend = [f"Cells from several commits: unmarked, git {code(base)} ({files_text(base)})"
              + "".join(f"; {marks[c]} git {code(c)} ({files_text(c)})" for c in others) + ".", ""]
    return marks, legend


def cell_text(machine, value, marks):
    if isinstance(value, Sourced):
        text = str(value.text)
        if value.row is not None and marks and text != DASH:
            text += marks.get(machine.commit(value.row), "")
        return text
    return str(value)


def drop_empty(header, rows, optional):
    """The table without those of the `optional` columns that hold nothing but dashes."""
    empty = {c for c in optional if all(str(row[c]) == DASH for row in rows)}
    keep = [c for c in range(len(header)) if c not in empty]
    return [header[c] for c in keep], [[row[c] for c in keep] for row in rows]


# Widest a table's line should be: wider tables are split by columns (the first `fixed` repeated in each part).
TABLE_WIDTH = 240


def column_parts(header, rows, fixed):
    """Index lists of the columns of each part: the fixed ones, then as many more as fit TABLE_WIDTH."""
    def width(column):
        return max(len(cell(row[column])) for row in [header] + rows) + 3
    base = sum(width(c) for c in range(fixed)) + 1
    parts, current, used = [], [], base
    for column in range(fixed, len(header)):
        if current and used + width(column) > TABLE_WIDTH:
            parts.append(current)
            current, used = [], base
        current.append(column)
        used += width(column)
    if current or not parts:
        parts.append(current)
    return [list(range(fixed)) + part for part in parts]


def marked_table(machine, header, rows, fixed=None):
    """The table (split by columns where too wide), its Sourced cells marked by commit where they come from several,
    and the marks' legend under it."""
    marks, legend = commit_marks(machine, sources(rows)) if machine is not None else ({}, [])
    texts = [[cell_text(machine, value, marks) for value in row] for row in rows]
    if fixed is None:
        lines = table(header, texts)
    else:
        lines = []
        parts = column_parts(header, texts, fixed)
        for number, columns in enumerate(parts, start=1):
            if len(parts) > 1:
                lines += [f"Part {number} of {len(parts)}:", ""]
            lines += table([header[c] for c in columns], [[row[c] for c in columns] for row in texts])
    return lines + legend


# ------------------------------------------------------------------------------ line length

# Prose is wrapped to this width; tables, headings and images are left as they are.
WRAP_WIDTH = 118
# A word that would begin a new block if a wrapped line began with it (a list item, heading, quote, fence, table row
# or thematic break): a line is never broken before one.
BLOCK_START = re.compile(r"^(?:[-+*=_]+|#{1,6}|\d{1,9}[.)]|`{3,}.*|~{3,}.*|[>|<].*)$")
LIST_PREFIX = re.compile(r"^(\s*)([-+*] |\d{1,9}\. )?")


def wrap_line(line, width=WRAP_WIDTH):
    if len(line) <= width or line.startswith(("|", "#", "![", "```")) or not line.strip():
        return [line]
    prefix = LIST_PREFIX.match(line).group(0)
    indent = " " * len(prefix)
    words = line[len(prefix):].split(" ")
    lines, current = [], prefix + words[0]
    for word in words[1:]:
        if len(current) + 1 + len(word) > width and word and BLOCK_START.match(word) is None \
                and current.strip() != prefix.strip():
            lines.append(current)
            current = indent + word
        else:
            current += " " + word
    return lines + [current]


def wrap(lines, width=WRAP_WIDTH):
    """Every prose line of `lines` (each a line without line breaks) wrapped to `width` where Markdown lets it be: a
    list item's continuation indented under its text, so that it renders as before."""
    return [part for line in lines for text in line.split("\n") for part in wrap_line(text, width)]


def unwrap(text):
    """The Markdown with wrapped prose joined again (wrap's inverse for its own output): for tests that look for a
    phrase whatever the line it was broken across."""
    out = []
    for line in text.split("\n"):
        previous = out[-1] if out else ""
        continuation = (line.strip() and previous.strip() and not previous.startswith(("|", "#", "![", "```"))
                        and not line.startswith(("|", "#", "![", "```"))
                        and LIST_PREFIX.match(line.lstrip()).group(2) is None
                        and (not line.startswith(" ") or len(line) - len(line.lstrip()) >= 2))
        if continuation:
            out[-1] = previous + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)
