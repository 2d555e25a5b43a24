"""Budgets past any use: an agent spec or a number option that asks for more than a run can spend.

``mc:99999999999999999999`` was accepted and played one decision for ever; ``mc:d…`` (moves per
playout), ``mc:k…``, ``mc:infs`` and ``default:N`` likewise had no upper bound. Each agent parameter now
has one, and a spec past it is a usage error (exit 2) naming the spec, the amount and the limit, before
any game starts. A number option that is not a number (``--time-limit nan``: no comparison refuses NaN,
so the limit never fired; ``--timeout nan``: an internal error) or is infinite is refused as well.

The other number options need no bound of their own: ``-n`` and ``--workers`` are bounded by the work
and the machine (``test_worker_processes``), ``--hands``/``--moves``/``--max-moves`` only cut games
short (a game also ends by its rules and the ruleset's own hand bound), ``--seed`` is any whole number
(Python's RNG takes it whole), ``--seat`` is checked against the ruleset's seats and ``--port`` is 0-65535.
"""

from __future__ import annotations

import pytest
from cli_support import Cli, error_lines


@pytest.mark.parametrize(("spec", "message"), [
    ("mc:99999999999999999999", "error: agent 'mc:99999999999999999999': '99999999999999999999' asks for "
                                "99,999,999,999,999,999,999 playouts per decision; the limit is 100,000"),
    ("ismcts:1000000", "error: agent 'ismcts:1000000': '1000000' asks for 1,000,000 iterations per decision; "
                       "the limit is 100,000"),
    ("mc:10:d99999999999", "error: agent 'mc:10:d99999999999': 'd99999999999' asks for 99,999,999,999 moves "
                           "per playout; the limit is 10,000"),
    ("mc:k5000", "error: agent 'mc:k5000': 'k5000' asks for 5,000 moves considered per decision; the limit is "
                 "1,000"),
    ("mc:infs", "error: agent 'mc:infs': 'infs' asks for inf seconds per decision; the limit is 3600"),
    ("ismcts:1e300s", "error: agent 'ismcts:1e300s': '1e300s' asks for 1e+300 seconds per decision; the limit "
                      "is 3600"),
    ("default:99999999999", "error: agent 'default:99999999999' asks for 99,999,999,999 sampled worlds per "
                            "searched decision; the limit is 1,000"),
])
@pytest.mark.parametrize("command", ["simulate", "play", "compare"])
def test_an_agent_asking_for_more_than_its_bound_is_a_usage_error(cli: Cli, spec: str, message: str,
                                                                   command: str) -> None:
    cli.tiny()
    args = {"simulate": ("simulate", "tiny.yaml", "-n", "1", "--no-timings", "--agents", spec),
            "play": ("play", "tiny.yaml", "--seed", "1", "--seats", f"human,{spec}"),
            "compare": ("compare", "tiny.yaml", "tiny.yaml", "-n", "1", "--no-timings", "--agents", spec)}[command]
    r = cli(*args)
    assert r.code == 2
    assert error_lines(r.err) == [message]


@pytest.mark.parametrize("spec", ["mc:100000:3600s:d10000:k1000:h", "ismcts:100000", "default:1000"])
def test_a_spec_at_its_bounds_is_accepted(spec: str) -> None:
    from rulecraft.agents.base import make_agent

    assert make_agent(spec, 1, 0).name == spec.split(":")[0]


def test_a_number_too_long_for_python_is_a_bad_argument_clipped(cli: Cli) -> None:
    cli.tiny()
    r = cli("simulate", "tiny.yaml", "-n", "1", "--agents", "mc:" + "9" * 5000)
    assert r.code == 2
    [line] = error_lines(r.err)
    assert line.startswith("error: bad mc argument '99999") and "(5,000 characters)" in line and len(line) < 400


@pytest.mark.parametrize("value", ["nan", "inf", "NaN", "Infinity"])
@pytest.mark.parametrize("args", [("validate", "--simulate", "1", "tiny.yaml", "--time-limit"),
                                  ("test", "--mutate", "scenarios", "--timeout"),
                                  ("test", "--mutate", "scenarios", "--fail-under")])
def test_a_number_option_that_is_not_a_finite_number_is_refused(cli: Cli, args: tuple[str, ...],
                                                                value: str) -> None:
    cli.tiny()
    cli.write("scenarios/a.yaml", "name: a\nrule: r\nruleset: ../tiny.yaml\nmoves: []\n")
    r = cli(*args, value)
    assert r.code == 2
    assert f"Invalid value for '{args[-1]}': " in r.err
    assert "is not a finite number." in r.err or "is not in the range" in r.err
