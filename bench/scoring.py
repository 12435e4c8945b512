"""Hands per second: Tenbou's riichi scorer against the PyPI `mahjong` library, same hands, one run.

    python bench/scoring.py [--rounds 5] [--generated N] [--stages]

The hands are the 2,043 recorded Tenhou wins when `../shared/data/tenhou/` is beside the checkout,
else N generated winning hands (the differential test's generator, derandomized). Only hands both
libraries score are timed. Tenbou is timed through the whole contract (`scorer.score`: reading
the JSON request, checking it, scoring, rendering the response) and through the engine alone
(`scorer.riichi.score_hand` on an already-read hand); `mahjong` on inputs already converted to its
136-ids (a fresh `HandConfig` per hand, as it writes into its config). The engine against
`estimate_hand_value` is like against like; the contract row does more (reading and checking
JSON, rendering the response) than the `mahjong` call it is set against.

Tenbou memoises hand shapes, so three figures each:
- new process: Tenbou's caches emptied before every pass;
- unseen hands: the even-numbered hands are timed after the odd ones filled the caches (a
  server that has scored other hands);
- same again: the same hands once more (a camera re-scoring the hand of every frame).
The scorers take turns in every round and the time is the process's CPU time, so a busy shared
machine skews them less; each answer is dropped once made (`each`), as a server drops it once
sent; best of the rounds, with the spread of the same-round ratios beside it.
The headline figure is `scorer.score` on unseen hands: what a client of the contract gets from a
running server. The first line says whether Tenbou's scorer ran compiled (setup.py compiles it
with mypyc where it can) or as Python (TENBOU_PURE_PYTHON=1 times the Python one).

`--stages` also splits `scorer.score` on unseen hands into its steps (read the request, check
the hand, score it, render the response) in microseconds a hand, to show where the time goes.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer import BUILD, score  # noqa: E402
from scorer.request import read_request  # noqa: E402
from scorer.riichi import rules_for, score_hand  # noqa: E402
from tests.mahjong_adapter import mahjong_hand, score_with_mahjong  # noqa: E402

TENHOU = ROOT.parent / "shared/data/tenhou/agari-dev.jsonl"
PEER = "mahjong 2.1.0, estimate_hand_value"
MODES = ("new process", "unseen hands", "same again")
CONTRACT, ENGINE = "Tenbou, scorer.score (contract)", "Tenbou, engine alone (score_hand)"
HEADLINE = (CONTRACT, "unseen hands")


def recorded_hands() -> list[dict]:
    from tests.tenhou_data import load
    return [win.request for win in load(TENHOU)]


def generated_hands(count: int) -> list[dict]:
    from hypothesis import HealthCheck, given, settings
    from tests.hand_strategies import winning_hands
    hands: list[dict] = []

    @settings(max_examples=count, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(winning_hands())
    def collect(request):
        hands.append(request)

    collect()
    return hands


def scoreable(requests: list[dict]) -> list[dict]:
    """The hands both libraries score (no yaku, refused flags and the like are left out)."""
    return [r for r in requests if score(r)["ok"] and not score_with_mahjong(mahjong_hand(r)).error]


def clear_scorer_caches() -> None:
    """Forget everything Tenbou's scorer remembered (every cache or table with a `.cache_clear()`)."""
    for name, module in list(sys.modules.items()):
        if name == "scorer" or name.startswith("scorer."):
            for value in list(vars(module).values()):
                if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def each(function: Callable) -> Callable[[list], None]:
    """Call `function` on every input and keep nothing, as a server drops each answer once it is
    sent: a pass that kept a thousand answers alive would time the garbage collector walking
    them (and every input of the run) as much as the scorer."""
    def job(items: list) -> None:
        for item in items:
            function(item)
    return job


def scorers(requests: list[dict]) -> dict[str, tuple[Callable[[list], None], list]]:
    """Each scorer as (score these inputs, its inputs for every hand, in the same order)."""
    checked = [read_request(r) for r in requests]
    return {
        CONTRACT: (each(score), requests),
        ENGINE: (each(lambda pair: score_hand(*pair)),
                 [(c.hand, rules_for(c.preset, c.options, c.hand.players)) for c in checked]),
        PEER: (each(score_with_mahjong), [mahjong_hand(r) for r in requests]),
    }


def one_pass(job: Callable[[list], None], inputs: list, mode: str) -> tuple[float, int]:
    """Seconds for one timed pass in `mode`, and how many hands it scored."""
    timed = inputs
    if mode != "same again":
        clear_scorer_caches()
    if mode == "unseen hands":
        job(inputs[1::2])
        timed = inputs[::2]
    elif mode == "same again":
        job(inputs)
    start = time.process_time()
    job(timed)
    return time.process_time() - start, len(timed)


def measure(jobs: dict, rounds: int) -> dict[str, dict[str, list[float]]]:
    """Hands per second of every scorer in every mode, one figure per round (scorers take turns)."""
    rates: dict[str, dict[str, list[float]]] = {label: {mode: [] for mode in MODES} for label in jobs}
    for mode in MODES:
        for _ in range(rounds):
            for label, (job, inputs) in jobs.items():
                seconds, hands = one_pass(job, inputs, mode)
                rates[label][mode].append(hands / seconds)
    return rates


def report(rates: dict[str, dict[str, list[float]]], count: int, source: str, rounds: int) -> list[str]:
    """The lines to print: hands per second (best round) per scorer and mode, then each Tenbou
    path against `mahjong` with the spread of the same-round ratios, then the headline."""
    best = {label: {mode: max(values) for mode, values in by_mode.items()} for label, by_mode in rates.items()}
    lines = [f"{count} {source}, scored by both libraries; hands per second (CPU time, best of {rounds} rounds); "
             f"Tenbou's scorer: {BUILD}",
             f"{'':<36}" + "".join(f"{mode:>14}" for mode in MODES)]
    lines += [f"{label:<36}" + "".join(f"{best[label][mode]:>14,.0f}" for mode in MODES) for label in rates]
    lines.append(f"ratio to {PEER} (best rounds; in brackets the lowest and highest same-round ratio):")
    for ours in (CONTRACT, ENGINE):
        cells = []
        for mode in MODES:
            paired = [a / b for a, b in zip(rates[ours][mode], rates[PEER][mode])]
            cells.append(f"{best[ours][mode] / best[PEER][mode]:.2f}x {mode} [{min(paired):.2f}-{max(paired):.2f}]")
        lines.append(f"  {ours.split(', ')[1]:<26} " + ", ".join(cells))
    ours, mode = HEADLINE
    ratio = best[ours][mode] / best[PEER][mode]
    lines.append(f"HEADLINE (the public path, hands the server has not seen): {ours.split(', ')[1]} "
                 f"{best[ours][mode]:,.0f} hands/s vs mahjong {best[PEER][mode]:,.0f} hands/s on {mode} = "
                 f"{ratio:.2f}x (target 2x: {'met' if ratio >= 2 else 'not met'})")
    return lines


def stages(requests: list[dict], rounds: int) -> list[str]:
    """Microseconds a hand for each step of `scorer.score` on unseen hands (best of the rounds):
    each step is timed over the even hands with every step before it done outside the clock."""
    from scorer.contract import _riichi_rules, render_riichi
    from scorer.tally import tally_tiles
    from scorer.hand_checks import check_hand

    def check(request):
        """As the contract does: the hand's tiles counted once, for the checks and the engine."""
        tally = tally_tiles(request.hand)
        check_hand(request.hand, request.rules, tally)
        return request, tally

    warm, timed = requests[1::2], requests[::2]
    best: dict[str, float] = {}
    for _ in range(rounds):
        clear_scorer_caches()
        for request in warm:
            score(request)
        read = _timed(best, "read the request", read_request, timed)
        checked = _timed(best, "check the hand", check, read)
        scored = _timed(best, "score it (engine)", lambda rt: score_hand(rt[0].hand, _riichi_rules(rt[0]), rt[1]),
                        checked)
        _timed(best, "render the response", render_riichi, scored)
    total = sum(best.values())
    return ["scorer.score on unseen hands, step by step (us a hand, CPU time, best of "
            f"{rounds} rounds; the steps add to {total:.0f} us):"] + \
        [f"  {name:<22}{us:>7.1f} us  {us / total:6.1%}" for name, us in best.items()]


def _timed(best: dict[str, float], name: str, step: Callable, items: list) -> list:
    start = time.process_time()
    out = [step(item) for item in items]
    us = (time.process_time() - start) / len(items) * 1e6
    best[name] = min(best.get(name, us), us)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds, best kept (default 5)")
    parser.add_argument("--generated", type=int, default=0,
                        help="use N generated hands even when the recorded ones are there")
    parser.add_argument("--stages", action="store_true", help="also time each step of scorer.score")
    args = parser.parse_args(argv)
    if TENHOU.is_file() and not args.generated:
        source, requests = "recorded Tenhou wins", recorded_hands()
    else:
        source, requests = "generated hands", generated_hands(args.generated or 2000)
    requests = scoreable(requests)
    jobs = scorers(requests)
    print("\n".join(report(measure(jobs, args.rounds), len(requests), source, args.rounds)))
    if args.stages:
        print("\n".join(stages(requests, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
