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
from pathlib import Path
from typing import Any

from cardref.engine.eventlog import read_log
from cardref.engine.judge import judge_text

HERE = Path(__file__).resolve().parent
GAME = "guafeng-zibo"
NAMES = ["东", "南", "西", "北"]
NAMES6 = ["老张", "小李", "王哥", "赵姐", "孙师傅", "周老师"]
GOUJI_LOG = "gouji.jsonl"
MAX_VIDEO_BYTES = 5 * 1024 * 1024


def _events_from_engine(seed: int, illegal: int, game: str = GAME) -> list[dict[str, Any]]:
    from cardref.vision.simulate.deal import simulate_events

    sim = simulate_events(game, seed, illegal=illegal)
    return [e.to_json() for e in sim.events]


def shrink_recording(src: Path, out: Path, scale: float) -> None:
    """Copy ``video.mp4``, ``frames.jsonl`` (the true detections) and ``calibration.json``
    from ``cardref simulate``'s folder, resized by ``scale`` so the video stays small."""
    import dataclasses

    import cv2
    import numpy as np

    from cardref.vision.calibration import load_calibration, save_calibration

    cap = cv2.VideoCapture(str(src / "video.mp4"))
    fps = cap.get(cv2.CAP_PROP_FPS) or 5.0
    w = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) * scale) // 2 * 2
    h = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) * scale) // 2 * 2
    writer = cv2.VideoWriter(str(out / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        writer.write(cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA))
    writer.release()
    cap.release()
    if (src / "frames.jsonl").is_file():
        rows = []
        for line in (src / "frames.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            obj = json.loads(line)
            obj["dets"] = [[d[0], d[1], *(round(v * scale, 1) for v in d[2:6]),
                            [[round(v * scale, 1) for v in c] for c in (d[6] if len(d) > 6 else [])]]
                           for d in obj.get("dets", [])]
            rows.append(json.dumps(obj, separators=(",", ":")))
        (out / "frames.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    if (src / "calibration.json").is_file():
        cal = load_calibration(str(src / "calibration.json"))
        H = cal.homography @ np.diag([1 / scale, 1 / scale, 1.0])
        small = dataclasses.replace(cal, homography=H, image_size=(w, h), corners_px=cal.corners_px * scale)
        save_calibration(small, str(out / "calibration.json"))


def _events_from_sim(folder: Path, seed: int, illegal: int) -> list[dict[str, Any]]:
    """The recording's true events; the bottom (revealed by hand at the end, so not in the
    video's truth) comes from the same deal of the engine's simulator."""
    lines = read_log(str(folder / "truth.jsonl"))
    events = [line.event.to_json() for line in lines if line.event is not None]
    if not any(e["type"] == "bottom" for e in events):
        same = _events_from_engine(seed, illegal)
        if same and events and same[0] == {k: v for k, v in events[0].items() if k in same[0]}:
            bottom = next((e for e in same if e["type"] == "bottom"), None)
            if bottom is not None:
                last_t = max((e.get("t", 0.0) for e in events if isinstance(e.get("t"), int | float)), default=0.0)
                events.append({**bottom, "t": round(last_t + 2.0, 2), "source": "manual"})
    return events


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
            e.setdefault("names", NAMES if e.get("seats") == 4 else NAMES6)
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


def write(events: list[dict[str, Any]], out: Path, name: str = "table.jsonl") -> dict[str, Any]:
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)
    (out / name).write_text(text, encoding="utf-8")
    result = judge_text(text.splitlines())
    with (out / name.replace(".jsonl", "-verdicts.jsonl").replace("table-", "")).open("w", encoding="utf-8") as fh:
        for v in result.verdicts:
            fh.write(json.dumps(v.to_json("zh"), ensure_ascii=False) + "\n")
        fh.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
    faults = [v.to_json("en") for v in result.verdicts if not v.ok]
    return {"events": len(events), "faults": faults, "summary": result.summary()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardref.ui.demo.make", description=__doc__.splitlines()[0])
    p.add_argument("--sim", type=Path, help="folder written by `cardref simulate` (truth.jsonl, video.mp4, calibration.json)")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--scale", type=float, default=0.5, help="resize the simulated video by this factor (0.5)")
    p.add_argument("--illegal", type=int, default=2)
    p.add_argument("--out", type=Path, default=HERE)
    p.add_argument("--gouji-seed", type=int, default=6, help="seed of the log-only 够级 demo (gouji.jsonl)")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.sim:
        events = _events_from_sim(args.sim, args.seed, args.illegal)
        if (args.sim / "video.mp4").is_file():
            shrink_recording(args.sim, args.out, args.scale)
            size = (args.out / "video.mp4").stat().st_size
            if size > MAX_VIDEO_BYTES:
                print(f"the demo video is {size / 1e6:.1f} MB, over the 5 MB limit: use a smaller --scale")
                return 1
    else:
        events = _events_from_engine(args.seed, args.illegal)
    report = write(dress(events, args.seed), args.out)
    print(json.dumps({"events": report["events"], "faults": [(f["i"], f["code"]) for f in report["faults"]],
                      "summary": report["summary"]}, ensure_ascii=False))
    if args.gouji_seed is not None:  # a log-only 够级 deal beside it
        # a legal deal with one card misread by the camera: the engine's illegal plays
        # of 够级 derail the rest of the simulated deal
        gouji = dress(_events_from_engine(args.gouji_seed, 0, "gouji-yucheng"), args.gouji_seed, misread=True)
        report = write(gouji, args.out, GOUJI_LOG)
        print(json.dumps({"gouji_events": report["events"],
                          "faults": [(f["i"], f["code"]) for f in report["faults"]]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
