"""Suites (`matcompare --suite`, `--shapes`): per problem of a suite run and per device and precision, this project's
fastest row against the best vendor library of that precision, then the geometric mean and the worst over the
suite; and a plot of the same. Runs without a `suite` in their context show none of it, and neither does the error
study's suite, whose runs are about accuracy (accuracy.py draws them)."""
import math

from .accuracy import ERROR_SUITE
from .markdown import DASH, Sourced, code, file_slug, fmt_plain, fmt_ratio, marked_table, shape_label
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
                    cells.append(Sourced(f"{fmt_ratio(found[1])} {code(short_name(found[0]))}",
                                         machine.row(found[0], shape)) if found else DASH)
                rows.append([shape_label(shape), name or DASH] + cells)
            summary = []
            for label, pick in (("geometric mean", None), ("worst", min)):
                cells = []
                for key in keys:
                    ratios = [ratio for _, _, _, ratio in groups[key]]
                    if pick is None:
                        cells.append(f"**{fmt_ratio(geometric_mean(ratios))}** over {len(ratios)}")
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
            "the suite's problems that have a measured row.", ""] + lines


def plot_suites(machine, out_dir, plt, save_figure):
    """One plot per suite: × best vendor of the fastest own row per problem, a line per device and precision."""
    from .plots import plain
    made = []
    for suite, _, problems in suites_of(machine):
        groups = own_ratios(machine, problems)
        if not groups:
            continue
        index = {shape: number for number, (shape, _) in enumerate(problems)}
        figure, axes = plt.subplots(figsize=(max(6.0, 0.18 * len(problems) + 2), 4))
        for (device, precision), items in sorted(groups.items()):
            axes.plot([index[shape] for shape, _, _, _ in items], [ratio for _, _, _, ratio in items], marker="o",
                      linestyle="none", label=plain(f"{device.upper()} {precision}"))
        axes.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        axes.set_yscale("log")
        axes.set_xlabel(plain(f"problem of {suite} (in the suite's order)"))
        axes.set_ylabel("× best vendor (fastest own row)")
        axes.set_title(plain(f"{machine.label}: suite {suite}"), fontsize="medium")
        axes.legend(fontsize="small")
        name = save_figure(figure, out_dir, f"m{machine.number}-suite-{file_slug(suite)}.png")
        made.append((f"{machine.label}: × best vendor over suite {suite}", name))
    return made
