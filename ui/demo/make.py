"""Make the bundled demo: ``python -m cardref.ui.demo.make [--sim DIR] [--seed N]``.

The demo is one simulated 刮风 deal with a few illegal plays, as the camera would log it:
each event has a time ``t``, ``source: camera`` and a detector confidence; two plays are
read with low confidence (they wait for the referee's confirmation) and one card is
misread (a third big joker, which no two-deck game holds).

With ``--sim DIR`` (the output of ``cardref simulate --game guafeng-zibo --seed S
--illegal K --out DIR``) the events and times come from that recording and its
``video.mp4`` and ``calibration.json`` are copied beside the log; without it the events
come from the rules engine's simulator (``cardref.vision.simulate.deal.simulate_events``,
which falls back to a plausible deal when the engine has none) and there is no video.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path
from typing import Any

from cardref.engine.eventlog import read_log
from cardref.engine.judge import judge_text

HERE = Path(__file__).resolve().parent
GAME = "guafeng-zibo"
NAMES = ["东", "南", "西", "北"]
MAX_VIDEO_BYTES = 5 * 1024 * 1024


def _events_from_engine(seed: int, illegal: int) -> list[dict[str, Any]]:
    from cardref.vision.simulate.deal import simulate_events

    sim = simulate_events(GAME, seed, illegal=illegal)
    return [e.to_json() for e in sim.events]


def _events_from_sim(folder: Path) -> list[dict[str, Any]]:
    lines = read_log(str(folder / "truth.jsonl"))
    return [line.event.to_json() for line in lines if line.event is not None]


def dress(events: list[dict[str, Any]], seed: int, *, misread: bool = True, low_conf: int = 2,
          step: float = 1.6) -> list[dict[str, Any]]:
    """Add what a camera log has: names, times, source and confidence; one misread card."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    t = 0.0
    plays = [k for k, e in enumerate(events) if e.get("type") == "play"]
    low = set(rng.sample(plays[4:20], min(low_conf, len(plays[4:20])))) if len(plays) > 8 else set()
    misread_at = plays[9] if misread and len(plays) > 10 else None
    for k, e in enumerate(events):
        e = dict(e)
        if e.get("type") == "deal":
            e.setdefault("names", NAMES)
            e["source"] = "manual"
            e.setdefault("t", 0.0)
        elif e.get("type") in ("play", "pass"):
            t = e["t"] if isinstance(e.get("t"), int | float) else t + step
            e["t"] = round(float(t), 2)
            e["source"] = "camera"
            e["conf"] = round(rng.uniform(0.42, 0.55) if k in low else rng.uniform(0.86, 0.99), 2)
            if k == misread_at:
                e["cards"] = ["BJ"] * len(e["cards"])  # two BJ were dealt; the camera reads a third
                e["conf"] = 0.71
        elif e.get("type") == "hand":
            e["source"] = "import"
        out.append(e)
    return out


def write(events: list[dict[str, Any]], out: Path) -> dict[str, Any]:
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)
    (out / "table.jsonl").write_text(text, encoding="utf-8")
    result = judge_text(text.splitlines())
    with (out / "verdicts.jsonl").open("w", encoding="utf-8") as fh:
        for v in result.verdicts:
            fh.write(json.dumps(v.to_json("zh"), ensure_ascii=False) + "\n")
        fh.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
    faults = [v.to_json("en") for v in result.verdicts if not v.ok]
    return {"events": len(events), "faults": faults, "summary": result.summary()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardref.ui.demo.make", description=__doc__.splitlines()[0])
    p.add_argument("--sim", type=Path, help="folder written by `cardref simulate` (truth.jsonl, video.mp4, calibration.json)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--illegal", type=int, default=2)
    p.add_argument("--out", type=Path, default=HERE)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.sim:
        events = _events_from_sim(args.sim)
        video = args.sim / "video.mp4"
        if video.is_file():
            if video.stat().st_size > MAX_VIDEO_BYTES:
                print(f"{video} is {video.stat().st_size / 1e6:.1f} MB, over the 5 MB demo limit")
                return 1
            shutil.copyfile(video, args.out / "video.mp4")
        cal = args.sim / "calibration.json"
        if cal.is_file():
            shutil.copyfile(cal, args.out / "calibration.json")
    else:
        events = _events_from_engine(args.seed, args.illegal)
    report = write(dress(events, args.seed), args.out)
    print(json.dumps({"events": report["events"], "faults": [(f["i"], f["code"]) for f in report["faults"]],
                      "summary": report["summary"]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
