"""Suites (`matcompare --suite`, `--shapes`): per problem of a suite run and per device and precision, this project's
fastest row against the best vendor library of that precision, then the geometric mean and the worst over the
suite; and a plot of the same. Runs without a `suite` in their context show none of it, and neither does the error
study's suite, whose runs are about accuracy (accuracy.py draws them)."""
import math
import textwrap

from .accuracy import ERROR_SUITE
from .markdown import DASH, Sourced, code, file_slug, fmt_plain, fmt_ratio, marked_table, shape_label
from .runs import pairs_of
from .vendors import fastest, is_library, precision_groups, short_name


def suites_of(machine):
    """[(suite name, title, [(shape, problem name)])] of the machine's runs, each suite once (the newest run's)."""
    found = {}
    for run in machine.runs:
        suite = run.context.get("suite")
        if not isinstance(suite, dict) or not isinstance(suite.get("shapes"), list) or suite.get("name") == ERROR_SUITE:
            continue
        problems = []
        for entry in suite["shapes"]:
            if not isinstance(entry, dict):
                continue
            shape = (entry.get("m"), entry.get("n"), entry.get("k"))
            layout = entry.get("layout", "NN")
            problems.append((shape if layout == "NN" else shape + (layout,), fmt_plain(entry.get("name"))))
        found[fmt_plain(suite.get("name"))] = (fmt_plain(suite.get("title")), problems)
    return [(name, title, problems) for name, (title, problems) in sorted(found.items())]


def own_ratios(machine, problems):
    """{(device, precision): [(shape, name, own backend, × best vendor)]}: the fastest measured row of this project per
    problem, matcompare's paired ratio to the best vendor library of its precision."""
    groups = {}
    for shape, name in problems:
        for key, backends in sorted(precision_groups(machine, shape).items()):
            own = fastest(machine, shape, [b for b in backends if not is_library(machine.row(b, shape))])
            if own:
                groups.setdefault(key, []).append((shape, name, own, machine.row(own, shape)["vs_best_vendor"]))
    return groups


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def one_pair(row):
    """Whether the row's measured ratio rests on a single pair (its budget held only its verification run), which can
    overstate the row in runs before a4d0851 (runs.pairs_of)."""
    return row.get("status") == "ok" and pairs_of(row) == 1


def suite_section(machines):
    lines = []
    for machine in machines:
        for suite, title, problems in suites_of(machine):
            groups = own_ratios(machine, problems)
            if not groups:
                continue
            keys = sorted(groups)
            lines += [f"### {machine.label}: suite {code(suite)}", "", f"{title}.", ""] if title else \
                     [f"### {machine.label}: suite {code(suite)}", ""]
            by_shape = {key: {shape: (own, ratio) for shape, _, own, ratio in groups[key]} for key in keys}
            rows = []
            for shape, name in problems:
                cells = []
                for key in keys:
                    found = by_shape[key].get(shape)
                    mark = " (1 pair)" if found and one_pair(machine.row(found[0], shape)) else ""
                    cells.append(Sourced(f"{fmt_ratio(found[1])}{mark} {code(short_name(found[0]))}",
                                         machine.row(found[0], shape)) if found else DASH)
                rows.append([shape_label(shape), name or DASH] + cells)
            summary = []
            for label, pick in (("geometric mean", None), ("worst", min)):
                cells = []
                for key in keys:
                    ratios = [ratio for _, _, _, ratio in groups[key]]
                    single = sum(one_pair(machine.row(own, shape)) for shape, _, own, _ in groups[key])
                    if pick is None:
                        cells.append(f"**{fmt_ratio(geometric_mean(ratios))}** over {len(ratios)}"
                                     + (f", {single} of one pair" if single else ""))
                    else:
                        shape, _, own, ratio = min(groups[key], key=lambda item: item[3])
                        cells.append(f"**{fmt_ratio(ratio)}** {code(short_name(own))} at {shape_label(shape)}")
                summary.append([f"**{label}**", ""] + cells)
            headers = ["Problem", "Name"] + [f"{device.upper()} {precision}" for device, precision in keys]
            lines += marked_table(machine, headers, rows + summary)
    if not lines:
        return []
    return ["## 2d. Suites", "",
            "Per problem of each suite run (`--suite`, `--shapes`) and per device and precision: this project's "
            "fastest measured row against the fastest vendor library of that precision in the same run "
            "(matcompare's paired “× best vendor”), with the row's name; then the geometric mean and the worst over "
            "the suite's problems that have a measured row. “(1 pair)” marks a ratio from a single pair of samples, "
            "where the row's budget held only its verification run: runs before a4d0851 timed the vendor's side of that "
            "pair on its first run, up to twice its median on the GPU, so such cells can overstate the row "
            "(bench/NOTES.md).", ""] + lines


# Problems per panel of a suite's plot: a longer suite is wrapped into panels one above the other, so that its plot
# keeps a page's width and its shapes stay readable (deepbench-training's 160 problems once made a 2707-pixel strip).
PROBLEMS_PER_PANEL = 32
# The y axis reaches at least from 1/MIN_SUITE_REACH to MIN_SUITE_REACH (× best vendor), before its margin.
MIN_SUITE_REACH = 2.0
# Characters per line of a legend entry, which names the rows compared.
SUITE_LEGEND_WIDTH = 44


def counted_names(names):
    """"simt-tuned ×12, warp-tiled ×3": each name once, the most frequent first (ties by name)."""
    counts = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{name} ×{count}" if count > 1 else name
                     for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def suite_legend(machine, device, precision, items):
    """The legend entry of one device and precision: which of this project's rows was the fastest, and which vendor
    library was the best, over the suite's problems."""
    own = counted_names(short_name(backend) for _, _, backend, _ in items)
    vendors = counted_names(short_name(str(machine.row(backend, shape).get("best_vendor")))
                            for shape, _, backend, _ in items)
    return textwrap.fill(f"{device.upper()} {precision}: this project's fastest ({own}) ÷ the best vendor "
                         f"({vendors})", width=SUITE_LEGEND_WIDTH, break_on_hyphens=False)


def plot_suites(machine, out_dir, plt, save_figure):
    """One plot per suite: × best vendor of the fastest own row per problem, a series per device and precision, the
    problems' shapes on x; a long suite wrapped into panels of PROBLEMS_PER_PANEL problems."""
    from .plots import MARKERS, plain
    made = []
    for suite, _, problems in suites_of(machine):
        groups = own_ratios(machine, problems)
        if not groups:
            continue
        index = {shape: number for number, (shape, _) in enumerate(problems)}
        panels = -(-len(problems) // PROBLEMS_PER_PANEL)
        shown = min(len(problems), PROBLEMS_PER_PANEL)
        # Constrained: room for the rotated shapes under each panel and for the legend beside the first.
        figure, panel_axes = plt.subplots(panels, 1, sharey=True, squeeze=False, layout="constrained",
                                          figsize=(max(6.0, 0.2 * shown + 1.5) + 3.5, 2.9 * panels + 0.6))
        ratios = [ratio for items in groups.values() for _, _, _, ratio in items]
        # Limits even about 1 (as fast as the vendor), with room above and below the points; at least ½ to 2, so
        # that values on both sides of 1 are labelled.
        reach = max(max(ratios), 1 / min(ratios), MIN_SUITE_REACH) * 1.3
        for panel, axes in enumerate(panel_axes[:, 0]):
            first = panel * PROBLEMS_PER_PANEL
            numbers = range(first, min(first + PROBLEMS_PER_PANEL, len(problems)))
            for marker, ((device, precision), items) in zip(MARKERS, sorted(groups.items())):
                inside = [(index[shape], ratio) for shape, _, _, ratio in items if index[shape] in numbers]
                axes.plot([x for x, _ in inside], [y for _, y in inside], marker=marker, linestyle="none",
                          label=plain(suite_legend(machine, device, precision, items)))
            axes.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            axes.set_yscale("log")
            axes.set_ylim(1 / reach, reach)
            axes.set_xlim(first - 0.7, first + PROBLEMS_PER_PANEL - 0.3 if panels > 1 else len(problems) - 0.3)
            # One tick per problem, labelled with its shape: x is a problem, never a fraction of one.
            axes.set_xticks(list(numbers))
            axes.set_xticklabels([plain(shape_label(problems[number][0])) for number in numbers], rotation=90,
                                 fontsize="x-small")
            axes.set_ylabel("× best vendor, log")
            axes.grid(True, axis="y", which="both", alpha=0.3)
        panel_axes[-1, 0].set_xlabel(plain(f"problem of {suite} (M×N×K, layout if not NN; in the suite's order)"))
        panel_axes[0, 0].set_title(plain(f"{machine.label}: suite {suite}\nper problem, this project's fastest row "
                                         "÷ the fastest vendor library of its precision (paired samples)"),
                                   fontsize="medium")
        panel_axes[0, 0].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
        name = save_figure(figure, out_dir, f"m{machine.number}-suite-{file_slug(suite)}.png")
        made.append((f"{machine.label}: × best vendor over suite {suite}", name))
    return made
