"""``compare --plot``: the two sides' distributions drawn side by side (matplotlib, an optional extra).

matplotlib is imported only when a plot is asked for, with the non-interactive Agg backend, and the
image is written through ``runs.files`` (atomically, honouring the umask, into a directory that
must exist), so a crash never leaves half a PNG behind.
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
        raise UsageError("--plot needs matplotlib: pip install 'rulecraft[plot]'") from None
    return plt


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
    plt = require_matplotlib()
    a, b = report["a"], report["b"]
    seats = min(len(a["win_rate"]), len(b["win_rate"]))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    labels = ("A", "B")
    colours = ("tab:blue", "tab:orange")

    ax = axes[0]
    for k, side in enumerate((a, b)):
        xs = [s + (k - 0.5) * 0.35 for s in range(seats)]
        rates = [side["win_rate"][s]["rate"] for s in range(seats)]
        err = [[r - side["win_rate"][s]["ci95"][0] for s, r in enumerate(rates)],
               [side["win_rate"][s]["ci95"][1] - r for s, r in enumerate(rates)]]
        ax.bar(xs, rates, width=0.35, yerr=err, capsize=3, color=colours[k], label=labels[k])
    ax.set_xticks(range(seats), [f"seat {s}" for s in range(seats)])
    ax.set_ylim(0, 1)
    ax.set_title("win rate (95% Wilson CI)")
    ax.legend()

    ax = axes[1]
    data, pos = [], []
    for s in range(seats):
        for k in range(2):
            data.append([r["scores"][s] for r in records[k]])
            pos.append(s * 3 + k)
    box = ax.boxplot(data, positions=pos, widths=0.8, patch_artist=True)
    for i, patch in enumerate(box["boxes"]):
        patch.set_facecolor(colours[i % 2])
    ax.set_xticks([s * 3 + 0.5 for s in range(seats)], [f"seat {s}" for s in range(seats)])
    ax.set_title("final score by seat (A blue, B orange)")

    ax = axes[2]
    moves = [[r["moves"] for r in recs] for recs in records]
    ax.hist(moves, bins=30, label=list(labels), color=list(colours))
    ax.set_title("game length (moves)")
    ax.legend()

    fig.suptitle(f"A: {_name(a, b)}   vs   B: {_name(b, a)}   ({report['games']} games each)", fontsize=10)
    fig.tight_layout()
    _save_atomic(fig, Path(path))
    plt.close(fig)


def _name(side: dict[str, Any], other: dict[str, Any]) -> str:
    """The ruleset's name and the options in which it differs from the other side (all of them would not fit)."""
    rs, theirs = side["ruleset"], other["ruleset"]["options"]
    return str(rs["name"]) + "".join(f" {k}={v}" for k, v in rs["options"].items() if theirs.get(k) != v)


def _save_atomic(fig: Any, path: Path) -> None:
    write_file(path, lambda tmp: fig.savefig(tmp, format="png", dpi=100))
