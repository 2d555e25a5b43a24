"""Compare in the browser: a background job whose report gives B − A with the terminal's 95% intervals."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from starlette.testclient import TestClient
from webtools import finished

from rulecraft.wording import scaled_ci, with_ci


def test_b_minus_a_is_shown_with_the_same_intervals_as_the_terminal() -> None:
    from rulecraft.web.app import make_app

    client = TestClient(make_app([], allowed_hosts=["testserver"]), follow_redirects=False)
    r = client.post("/compare", data={"a.ref": "rook", "b.ref": "rook", "b.opt.bird_rank": "lowest", "n": "8",
                                      "seed": "3", "agent": "random"})
    assert r.status_code == 303 and "/jobs/" in r.headers["location"]  # a job with its progress page, not a wait
    page = finished(client, r).text
    out = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "compare", "rook", "rook", "-b",
                          "bird_rank=lowest", "-n", "8", "--seed", "3", "--agents", "random", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    delta = json.loads(out)["b_minus_a"]
    ci = delta["ci95"]
    cells = re.findall(r"<td>([^<]*\[[^<]*\])</td>", page)
    expected = [with_ci(100 * x, scaled_ci(ci, "win_rate", s, 100)) for s, x in enumerate(delta["win_rate"])]
    assert cells[:4] == expected  # the seats' B − A win rates, in points, with the terminal's intervals
    assert with_ci(delta["mean_moves"], ci["mean_moves"]) in cells
