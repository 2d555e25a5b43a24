"""``compare --plot``: the two sides' distributions drawn side by side (matplotlib, an optional extra).

matplotlib is imported only when a plot is asked for, with the non-interactive Agg backend, and the
font the browser table ships for the games' own scripts (CJK names) is registered then as a fallback
family, so a machine without CJK fonts draws them rather than empty boxes. The image is written
through ``runs.files`` (atomically, honouring the umask, into a directory that must exist), so a crash
never leaves half a PNG behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulecraft.errors import UsageError
from rulecraft.runs.files import write_file


def require_matplotlib() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: install the plot extra from rulecraft's checkout "
                         "(pip install '.[plot]'), or matplotlib itself") from None
    return plt


# The browser table's font (Noto Sans CJK TC cut down to the characters the bundled rule files write):
# read as package data, not imported, so the command line does not depend on the web layer.
CJK_FONT = ("web", "static", "fonts", "rulecraft-cjk.otf")


def cjk_fallback(plt: Any) -> dict[str, Any]:
    """Registers the shipped CJK font with matplotlib and returns the rc settings that put it after the
    usual family: each glyph the usual font lacks is drawn from it (matplotlib's font fallback)."""
    from importlib.resources import files

    from matplotlib import font_manager

    font = files("rulecraft").joinpath(*CJK_FONT)
    if not font.is_file():
        return {}
    path = str(font)
    if path not in {f.fname for f in font_manager.fontManager.ttflist}:  # once a process
        font_manager.fontManager.addfont(path)
    name = font_manager.FontProperties(fname=path).get_name()
    family = list(plt.rcParams["font.family"])
    return {"font.family": [*family, name] if name not in family else family}


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_plot_path(path: str) -> None:
    """Before any game is played: the plot can be written there, and would replace nothing but an image."""
    from rulecraft.runs.files import check_writable

    target = check_writable(path, "--plot")
    if target.exists():
        with open(target, "rb") as fh:
            is_png = fh.read(len(PNG_SIGNATURE)) == PNG_SIGNATURE
        if not is_png:
            raise UsageError(f"--plot {path}: the file exists and is not a PNG image; rulecraft replaces only "
                             "an image it could have drawn: choose another name")


def plot_comparison(path: str, report: dict[str, Any], records: Sequence[Sequence[dict[str, Any]]]) -> None:
    """Four panels: win rate by seat, final scores, game length, and the rules that fired (A beside B)."""
    plt = require_matplotlib()
    with plt.rc_context(cjk_fallback(plt)):
        _plot(plt, path, report, records)


def _plot(plt: Any, path: str, report: dict[str, Any], records: Sequence[Sequence[dict[str, Any]]]) -> None:
    a, b = report["a"], report["b"]
    seats = min(len(a["win_rate"]), len(b["win_rate"]))
    fig, axes = plt.subplots(2, 2, figsize=(14, 9))
    labels = ("A", "B")
    colours = ("tab:blue", "tab:orange")
    _win_rates(axes[0][0], (a, b), seats, labels, colours)
    _scores(axes[0][1], records, seats, labels, colours)
    unit = "hands" if report.get("hands_per_game") == 1 else "games"
    _lengths(axes[1][0], records, labels, colours, unit)
    _rules_fired(axes[1][1], records, labels, colours)
    fig.suptitle(f"A: {_name(a, b)}   vs   B: {_name(b, a)}   ({report['games']} {unit} each, "
                 f"agents {','.join(a.get('agents', []))})", fontsize=10)
    fig.tight_layout()
    _save_atomic(fig, Path(path))
    plt.close(fig)


def _win_rates(ax: Any, sides: tuple[dict[str, Any], ...], seats: int, labels: Sequence[str],
               colours: Sequence[str]) -> None:
    lows: list[float] = []
    highs: list[float] = []
    for k, side in enumerate(sides):
        xs = [s + (k - 0.5) * 0.35 for s in range(seats)]
        rates = [side["win_rate"][s]["rate"] for s in range(seats)]
        cis = [side["win_rate"][s]["ci95"] for s in range(seats)]
        err = [[r - ci[0] for r, ci in zip(rates, cis, strict=True)],
               [ci[1] - r for r, ci in zip(rates, cis, strict=True)]]
        ax.errorbar(xs, rates, yerr=err, fmt="o", capsize=4, color=colours[k], label=labels[k], markersize=7)
        lows.extend(ci[0] for ci in cis)
        highs.extend(ci[1] for ci in cis)
    # The axis is fitted to the intervals (a 0-1 axis hides a difference of a few points).
    pad = max(0.02, 0.1 * (max(highs) - min(lows)))
    ax.set_ylim(max(0.0, min(lows) - pad), min(1.0, max(highs) + pad))
    ax.set_xticks(range(seats), [f"seat {s}" for s in range(seats)])
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate")
    ax.set_title("win rate by seat (95% Wilson CI)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()


def _scores(ax: Any, records: Sequence[Sequence[dict[str, Any]]], seats: int, labels: Sequence[str],
            colours: Sequence[str]) -> None:
    data, pos = [], []
    for s in range(seats):
        for k in range(2):
            data.append([r["scores"][s] for r in records[k]])
            pos.append(s * 3 + k)
    box = ax.boxplot(data, positions=pos, widths=0.8, patch_artist=True,
                     medianprops={"color": "black", "linewidth": 2})
    for i, patch in enumerate(box["boxes"]):
        patch.set_facecolor(colours[i % 2])
        patch.set_alpha(0.6)
    ax.set_xticks([s * 3 + 0.5 for s in range(seats)], [f"seat {s}" for s in range(seats)])
    ax.set_xlabel("seat")
    ax.set_ylabel("final score")
    ax.set_title("final score by seat (black line: median)")
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(facecolor=c, alpha=0.6, label=lab) for c, lab in zip(colours, labels, strict=True)])


def _lengths(ax: Any, records: Sequence[Sequence[dict[str, Any]]], labels: Sequence[str],
             colours: Sequence[str], unit: str = "games") -> None:
    moves = [[r["moves"] for r in recs] for recs in records]
    ax.hist(moves, bins=30, label=list(labels), color=list(colours), histtype="step", linewidth=2)
    ax.set_xlabel(f"moves per {unit[:-1]}")
    ax.set_ylabel(unit)
    ax.set_title(f"{unit[:-1]} length")
    ax.legend()


def _rules_fired(ax: Any, records: Sequence[Sequence[dict[str, Any]]], labels: Sequence[str],
                 colours: Sequence[str], most: int = 12) -> None:
    """Each rule's firings per game on both sides, with 95% intervals: the rules whose rate changed most first."""
    import math

    from rulecraft.runs.stats import Z95

    rules = sorted({k for recs in records for r in recs for k in r["fired"]})
    stats: dict[str, list[tuple[float, float]]] = {}
    for k in rules:
        per_side = []
        for recs in records:
            xs = [float(r["fired"].get(k, 0)) for r in recs]
            n = len(xs)
            mean = math.fsum(xs) / n if n else 0.0
            sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
            per_side.append((mean, Z95 * sd / math.sqrt(n) if n else 0.0))
        stats[k] = per_side

    def change(k: str) -> float:
        (ma, _), (mb, _) = stats[k]
        return abs(mb - ma) / max(ma, mb, 1e-9)

    shown = sorted(rules, key=lambda k: (-change(k), k))[:most]
    if not shown:
        ax.text(0.5, 0.5, "no rule with an id fired", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    shown.reverse()  # the largest change at the top
    for k in range(2):
        ys = [i + (k - 0.5) * 0.38 for i in range(len(shown))]
        means = [stats[r][k][0] for r in shown]
        errs = [stats[r][k][1] for r in shown]
        ax.barh(ys, means, height=0.38, xerr=errs, capsize=3, color=colours[k], label=labels[k], alpha=0.8)

    def label(r: str) -> str:
        (ma, _), (mb, _) = stats[r]
        return f"{r}  ({100 * (mb - ma) / ma:+.0f}%)" if ma else f"{r}  (new)" if mb else r

    ax.set_yticks(range(len(shown)), [label(r) for r in shown], fontsize=8)
    ax.set_xlabel("times fired per game (mean, 95% CI)")
    ax.set_title("rules fired (largest relative change at the top)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend()


def _name(side: dict[str, Any], other: dict[str, Any]) -> str:
    """The ruleset's name and the options in which it differs from the other side (all of them would not fit)."""
    rs, theirs = side["ruleset"], other["ruleset"]["options"]
    return str(rs["name"]) + "".join(f" {k}={v}" for k, v in rs["options"].items() if theirs.get(k) != v)


def _save_atomic(fig: Any, path: Path) -> None:
    write_file(path, lambda tmp: fig.savefig(tmp, format="png", dpi=100))
