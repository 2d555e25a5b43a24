"""A run's statistics do not depend on how its games were split: one process, chunks, workers, a cluster."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import ruleset

from rulecraft.runs.distribute import RunSpec, chunk_bounds, run_chunk, run_games, simulate_run
from rulecraft.runs.simulate import game_seed, simulate, summarize

SPEC = RunSpec.make("luk-fu", {"old_cards": "public-plus-original-run"}, None, ["random"] * 3, 5, max_hands=3)


def _stats(summary: Any) -> str:
    return json.dumps(summary.as_json(timings=False), sort_keys=True)


def test_chunks_merge_into_the_same_statistics_in_any_order() -> None:
    whole = run_games(SPEC, 10)
    parts = [run_chunk(SPEC, a, b) for a, b in chunk_bounds(10, 3)]
    assert [b - a for a, b in chunk_bounds(10, 3)] == [3, 3, 3, 1]
    records = [r for _, recs in reversed(parts) for r in recs]  # merged out of order on purpose
    rs = SPEC.load()
    one = summarize(rs.identity, 10, SPEC.seed, list(SPEC.agents), whole)
    other = summarize(rs.identity, 10, SPEC.seed, list(SPEC.agents), records)
    assert _stats(one) == _stats(other)
    assert [r["index"] for r in other.records] == list(range(10))
    assert [r["seed"] for r in whole] == [game_seed(SPEC.seed, i) for i in range(10)]


def test_simulate_api_and_chunked_run_agree() -> None:
    rs = ruleset("luk-fu")
    spec = RunSpec.make("luk-fu", {}, None, ["random"] * 3, 9)
    direct = simulate(rs, 6, 9, ["random"])
    chunked = simulate_run(spec, 6, chunk_size=4)
    assert _stats(direct) == _stats(chunked)
    assert direct.per_game == chunked.per_game


def test_worker_processes_give_identical_statistics() -> None:
    one = simulate_run(SPEC, 8, chunk_size=3)
    two = simulate_run(SPEC, 8, workers=2, chunk_size=3)
    assert _stats(one) == _stats(two)
    assert one.records == two.records


def test_dask_cluster_gives_identical_statistics() -> None:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (extra 'dask')")
    one = simulate_run(SPEC, 8, chunk_size=3)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp") as cluster, distributed.Client(cluster) as client:
        by_client = simulate_run(SPEC, 8, dask=client, chunk_size=3)
        by_address = simulate_run(SPEC, 8, dask=cluster.scheduler_address, chunk_size=2)
    assert _stats(one) == _stats(by_client) == _stats(by_address)
    assert one.records == by_client.records


def test_mc_games_are_identical_across_workers() -> None:
    spec = RunSpec.make("tien-gow", {}, None, ["mc:4:d20", "random", "random", "random"], 2, max_hands=1)
    assert run_games(spec, 4) == run_games(spec, 4, workers=2, chunk_size=1)
