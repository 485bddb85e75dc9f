"""``cardref bench detect``: frames per second of each detector backend on 1280x720 table frames.

Every installed backend runs the same frames in one process, one after another (warm-up
first), and the figures are printed side by side with the ratio to the PyTorch backend.
``detect`` time is the whole step the pipeline pays: letterbox, network, decoding, NMS and
corner merging.  Also measured: motion gating on a still-then-changing table
(``--gating``), the corner merger's accuracy on random synthetic tables (``--merge``), and
card F1 per index height on rendered scenes and the held-out real photos (``--scale-bands``;
``--frames 0`` leaves the speed figures out).
Numbers depend on the machine and its load: this is a benchmark, never a test.  Every
figure line ends with the CPU's instruction-set extensions (AVX2, AVX-512, VNNI, AMX, BF16,
read from ``/proc/cpuinfo``): INT8 and bf16 speed, and whether an INT8 copy runs at all
(:mod:`cardref.vision.detector.int8_check`), depend on them.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from cardref.vision.detector import (
    BACKENDS,
    DetectorError,
    available_backends,
    default_model_paths,
    load_detector,
)
from cardref.vision.detector.backends import default_threads
from cardref.vision.detector.cpu import cpu_name, isa_line
from cardref.vision.types import box_iou


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="cardref bench detect", description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20,
                   help="timed frames per backend (default 20; median reported; 0: no speed figures)")
    p.add_argument("--warmup", type=int, default=3, help="untimed frames first (default 3)")
    p.add_argument("--size", default="1280x720", help="frame WIDTHxHEIGHT (default 1280x720)")
    p.add_argument("--model", type=Path, default=None,
                   help="model .pt (its .onnx export beside it is used by onnx/openvino); default: shipped model")
    p.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated (default: all installed)")
    p.add_argument("--conf", type=float, default=None, help="corner confidence threshold (default: the detector's)")
    p.add_argument("--threads", type=int, default=None, help=f"threads per backend (default {default_threads()})")
    p.add_argument("--drawn", action="store_true", help="plain drawn frames instead of rendered table scenes")
    p.add_argument("--gating", action="store_true", help="also measure motion gating on a mostly still table")
    p.add_argument("--merge", action="store_true", help="also measure corner-merging accuracy")
    p.add_argument("--merge-only", action="store_true", help="only the corner-merging accuracy")
    p.add_argument("--accuracy", type=int, default=0, metavar="N",
                   help="also card F1 of each backend on N rendered held-out scenes (slow: ~2 s each)")
    p.add_argument("--scale-bands", type=int, default=0, metavar="N",
                   help="also card F1 per index-height band (10-80 px) on N rendered held-out scenes a band, "
                        "as cardref detect reads them and at scale 1 only (slow: ~1 s a scene)")
    p.add_argument("--scenes", type=int, default=0,
                   help="with --merge/--merge-only: also merge the labels of N rendered scenes (slow: ~2 s each)")
    return p.parse_args(argv)


def cpu_tag() -> str:
    """What every figure line ends with: the CPU's instruction-set extensions."""
    return f"[{isa_line()}]"


def _conf(args: argparse.Namespace) -> dict:
    return {} if args.conf is None else {"conf": args.conf}


def _model_for(backend: str, model: Path | None) -> Path | None:
    if model is None:
        return None
    if backend == "torch":
        return model if model.suffix == ".pt" else model.with_suffix(".pt")
    return model if model.suffix == ".onnx" or model.is_dir() else model.with_suffix(".onnx")


def _runs_int8(det) -> bool:  # noqa: ANN001 - a Detector
    from cardref.vision.detector.int8 import is_int8_copy

    namer = getattr(det, "namer", None)
    return is_int8_copy(det.model_path) or (namer is not None and is_int8_copy(namer.runtime_path))


def _describe(det) -> str:  # noqa: ANN001 - a Detector
    """Input shape, the runtime's precision and the namer's file, for the notes column."""
    from cardref.vision.detector.int8 import is_int8_copy

    shape = getattr(det.backend, "input_shape", None)
    note = f"input {shape[1]}x{shape[0]}" if shape else f"imgsz {getattr(det.backend, 'imgsz', '?')}"
    precision = "INT8" if is_int8_copy(det.model_path) else getattr(det.backend, "precision", "")
    namer = getattr(det, "namer", None)
    return (note + (f", {precision}" if precision else "")
            + (f", namer {namer.runtime_path.name}" if namer is not None else ""))


def bench_backends(args: argparse.Namespace, frames: list[np.ndarray]) -> dict[str, float]:
    """Median ms per frame of ``detect`` for each backend, timed in turns (frame i on every
    backend, then frame i + 1) so that a busy machine slows them all alike."""
    asked = [b.strip() for b in args.backends.split(",") if b.strip()]
    wanted = list(asked)  # the rows: each backend asked for, and its float variant where INT8 copies run
    installed = available_backends()
    detectors = {}
    notes: dict[str, str] = {}
    for backend in asked:
        if backend not in installed:
            notes[backend] = "runtime not installed"
            continue
        try:
            det = load_detector(backend, _model_for(backend, args.model), threads=args.threads, **_conf(args))
        except DetectorError as exc:
            notes[backend] = str(exc)
            continue
        variants = {backend: det}
        if _runs_int8(det):  # the float files beside them, in the same run: the INT8 copies' gain
            variants[f"{backend}/float"] = load_detector(backend, _model_for(backend, args.model), threads=args.threads,
                                                         int8=False, **_conf(args))
        for label, det in variants.items():
            notes[label] = _describe(det)
            detectors[label] = det
            for i in range(args.warmup):
                det.detect(frames[i % len(frames)])
            if label != backend:
                wanted.insert(wanted.index(backend) + 1, label)
    times: dict[str, list[float]] = {b: [] for b in detectors}
    cpu: dict[str, list[float]] = {b: [] for b in detectors}
    corners: dict[str, int] = {b: 0 for b in detectors}
    for i in range(args.frames):
        frame = frames[i % len(frames)]
        for backend, det in detectors.items():
            t0, c0 = time.perf_counter(), time.process_time()
            cards = det.detect(frame)
            times[backend].append((time.perf_counter() - t0) * 1000)
            cpu[backend].append((time.process_time() - c0) * 1000)
            corners[backend] += sum(len(c.corners) for c in cards)
    results = {b: float(np.median(t)) for b, t in times.items()}
    base = results.get("torch")
    print(f"{'backend':<15} {'model':<28} {'ms/frame':>9} {'fps':>6} {'vs torch':>9} {'cpu ms':>7} {'corners':>8}  "
          "notes  [CPU extensions]")
    for backend in wanted:
        if backend not in results:
            print(f"{backend:<15} {'-':<28} {'-':>9} {'-':>6} {'-':>9} {'-':>7} {'-':>8}  {notes.get(backend, '')}")
            continue
        ms = results[backend]
        ratio = f"{base / ms:.2f}x" if base else "-"
        model = detectors[backend].model_path.name
        print(f"{backend:<15} {model:<28} {ms:9.1f} {1000 / ms:6.1f} {ratio:>9} {np.median(cpu[backend]):7.1f} "
              f"{corners[backend] / max(args.frames, 1):8.1f}  {notes[backend]}  {cpu_tag()}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(ms/frame: median wall time of detect(); cpu ms: CPU time it used, all threads; load average "
          f"{load:.1f} on {os.cpu_count()} cores: above the core count the wall times are inflated by other work)")
    return results


def bench_gating(frames: list[np.ndarray], detector_ms: float | None) -> None:
    """A still table with camera noise, a change every 10 frames; share of frames detected."""
    from cardref.vision.detector.gating import MotionGate

    rng = np.random.default_rng(0)
    gate = MotionGate()
    run = total = 0
    gate_ms = []
    for frame in frames:
        for _ in range(10):
            noisy = np.clip(frame.astype(np.int16) + rng.normal(0, 2.5, frame.shape).astype(np.int16), 0, 255)
            noisy = noisy.astype(np.uint8)
            t0 = time.perf_counter()
            run += gate.changed(noisy)
            gate_ms.append((time.perf_counter() - t0) * 1000)
            total += 1
    share = run / total
    cost = float(np.median(gate_ms))
    line = (f"motion gating: detector ran on {run}/{total} frames ({share:.0%}) of a table that changes every "
            f"10 frames; the gate costs {cost:.2f} ms a frame")
    if detector_ms:
        eff = cost + share * detector_ms
        line += f"; effective {eff:.1f} ms/frame = {1000 / eff:.0f} fps with the default backend"
    print(f"{line}  {cpu_tag()}")


def bench_merge() -> None:
    from cardref.datasets.synthetic import merge_accuracy

    print("corner merging on random synthetic tables (1000 tables each; share of cards recovered exactly):")
    cases = [
        ("any turn, both indices showing", {}),
        ("  with box noise 5% of an index", {"jitter": 0.05}),
        ("  with box noise 10% of an index", {"jitter": 0.1}),
        ("upright/sideways, a third show one index", {"upright": True, "lone_share": 0.3,
                                                       "codes": ("QH", "QH", "2S")}),
        ("any turn, a third show one index", {"lone_share": 0.3}),
        ("every card the same code, any turn", {"codes": ("QH",)}),
    ]
    for label, kw in cases:
        acc = merge_accuracy(1000, seed=1, **kw)
        print(f"  {label:<44} cards {acc['cards']:.4f}  tables {acc['tables']:.3f}  ({acc['n_cards']} cards)  "
              f"{cpu_tag()}")


def bench_merge_scenes(n: int) -> None:
    """Merge the labelled corners of rendered table scenes and compare with their cards."""
    try:
        from cardref.datasets.faces import list_designs
        from cardref.datasets.scenes import SceneConfig, render_scene
        designs = list_designs()
    except Exception as exc:  # noqa: BLE001 - the generator is optional here
        print(f"corner merging on rendered scenes: not available ({exc})")
        return
    from cardref.vision.detector.merge import merge_corners
    from cardref.vision.types import CornerDetection

    cfg = SceneConfig(width=1280, height=720)
    ok = total = extra = missing = 0
    for seed in range(n):
        scene = render_scene(10_000 + seed, designs, cfg)
        corners, truth = [], {}
        for label in scene.labels:
            corner = CornerDetection(label.card, 0.9, tuple(float(v) for v in label.box))
            corners.append(corner)
            truth.setdefault(label.card_id, set()).add(corner)
        found = {frozenset(c.corners) for c in merge_corners(corners)}
        want = [frozenset(v) for v in truth.values()]
        ok += sum(w in found for w in want)
        total += len(want)
        extra += max(0, len(found) - len(want))
        missing += max(0, len(want) - len(found))
    print(f"corner merging on {n} rendered 1280x720 scenes (true corner labels, {len(designs)} designs): "
          f"cards {ok}/{total} = {ok / max(total, 1):.4f} recovered exactly; {extra} extra, {missing} missing  "
          f"{cpu_tag()}")


def bench_accuracy(args: argparse.Namespace, n: int) -> None:
    """Card-level F1 and corner recall of each backend on rendered held-out table scenes."""
    from collections import Counter

    try:
        from cardref.datasets.faces import list_designs
        from cardref.datasets.scenes import SceneConfig, render_scene
        designs = list_designs("heldout")
    except Exception as exc:  # noqa: BLE001 - the generator is optional here
        print(f"accuracy: rendered scenes not available ({exc})")
        return
    import cv2

    from cardref.vision.types import CornerDetection

    cfg = SceneConfig(width=1280, height=720)
    scenes = [render_scene(20_000 + i, designs, cfg) for i in range(n)]
    frames = [cv2.cvtColor(sc.image, cv2.COLOR_RGB2BGR) for sc in scenes]
    truth_cards = [Counter(sc.cards) for sc in scenes]
    truth_corners = [[CornerDetection(lb.card, 1.0, tuple(map(float, lb.box))) for lb in sc.labels] for sc in scenes]
    print(f"accuracy on {n} rendered 1280x720 scenes of {len(designs)} held-out designs "
          f"({sum(sum(c.values()) for c in truth_cards)} cards, {sum(map(len, truth_corners))} corners):")
    for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
        try:
            det = load_detector(backend, _model_for(backend, args.model), threads=args.threads, **_conf(args))
        except DetectorError as exc:
            print(f"  {backend:<9} -  ({exc})")
            continue
        tp = n_pred = n_true = found = right = total = 0
        for frame, want, corners in zip(frames, truth_cards, truth_corners, strict=True):
            got_corners = det.detect_corners(frame)
            got = Counter(c.card for c in det.merge_cards(got_corners, frame))
            tp += sum((got & want).values())
            n_pred += sum(got.values())
            n_true += sum(want.values())
            for t in corners:
                best = max(got_corners, key=lambda c, t=t: box_iou(c.box, t.box), default=None)
                if best is not None and box_iou(best.box, t.box) >= 0.5:
                    found += 1
                    right += best.card == t.card
                total += 1
        prec, rec = tp / max(n_pred, 1), tp / max(n_true, 1)
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        print(f"  {backend:<9} {det.model_path.name:<28} card F1 {f1:.3f} (P {prec:.3f} R {rec:.3f}); "
              f"corners found {found / max(total, 1):.3f}, read right {right / max(found, 1):.3f}  {cpu_tag()}")


def bench_scale_bands(args: argparse.Namespace, n: int) -> None:
    """Card F1 per index-height band (issue #33, item 2) of the default backend, read as
    ``cardref detect`` reads a photo (its photo scales and enlarged look) and as one look at scale 1."""
    try:
        from cardref.datasets.faces import list_designs
        from cardref.datasets.scale_bands import BANDS, band_scenes, scene_views, views_result
        designs = list_designs("heldout")
    except Exception as exc:  # noqa: BLE001 - the generator is optional here
        print(f"scale bands: rendered scenes not available ({exc})")
        return
    from cardref.vision.detector import PHOTO_ENLARGE, PHOTO_SCALES

    paths = {"detect": (tuple(PHOTO_SCALES), PHOTO_ENLARGE), "scale 1": ((1.0,), 1.0)}
    try:
        dets = {name: load_detector("auto", args.model, threads=args.threads, scales=scales, enlarge=enlarge,
                                    **_conf(args))
                for name, (scales, enlarge) in paths.items()}
    except DetectorError as exc:
        print(f"scale bands: no detector ({exc})")
        return
    print(f"card F1 per index-height band, {n} rendered 1280x720 scenes a band of {len(designs)} held-out "
          f"designs, backend {dets['detect'].name} (photo scales {', '.join(map(str, PHOTO_SCALES))}, "
          f"enlarged {PHOTO_ENLARGE:g}x when the indices are small):")
    for band in BANDS:
        scenes, off = band_scenes(band, n, designs, seed=3)
        views = scene_views(scenes)
        cells = []
        for name, det in dets.items():
            res = views_result(band, views, off, lambda frame, det=det: [c.card for c in det.detect(frame)])
            cells.append(f"{name} F1 {res.f1:.3f} (P {res.precision:.3f} R {res.recall:.3f})")
        print(f"  index {band[0]:>2}-{band[1]:<2} px (median {res.index_px:.1f}; {res.scenes} scenes, {res.cards} cards,"
              f" {res.off_band} off band): {'; '.join(cells)}  {cpu_tag()}")
    bench_real_bands(dets["detect"])


def bench_real_bands(det) -> None:  # noqa: ANN001 - a Detector
    """The same per band on the real photos held out from tuning (datasets.evaluate's split),
    each photo in the band of its median labelled index height; skipped without the photos."""
    try:
        from cardref.datasets.evaluate import _cards, labelled_photos, mapped_real_cards, real_cards_split
        from cardref.datasets.scale_bands import BANDS, photo_bands, views_result
        root = mapped_real_cards().parent
        held = real_cards_split(root)[1]
    except (FileNotFoundError, OSError) as exc:
        print(f"real photos by index height: not available ({exc})")
        return
    photos = [(image, _cards(labelled), labelled) for _, image, labelled in labelled_photos(held, root / "labels")]
    print(f"card F1 per index-height band, the {len(photos)} real photos held out from tuning, as cardref detect "
          f"reads them (each photo in the band of its median labelled index):")
    beyond = (BANDS[-1][1], 10**6)       # close-ups beyond the bands: reported apart
    for band, views in photo_bands(photos, (*BANDS, beyond)).items():
        name = f"{band[0]:>2}-{band[1]:<2} px" if band != beyond else f"{band[0]}+ px  "
        if not views:
            print(f"  index {name}: no photo")
            continue
        res = views_result(band, views, 0, lambda frame: [c.card for c in det.detect(frame)])
        print(f"  index {name} (median {res.index_px:.1f}; {res.scenes} photos, {res.cards} cards):"
              f" F1 {res.f1:.3f} (P {res.precision:.3f} R {res.recall:.3f})  {cpu_tag()}")
    bench_shrunk_real(det, photos)


def bench_shrunk_real(det, photos: list) -> None:  # noqa: ANN001 - a Detector; (image, cards, labels)
    """The held-out real photos shrunk into the webcam bands (and JPEG-compressed as a
    video stream is), so that real cards, not renders, are read at a webcam's index heights."""
    from cardref.datasets.scale_bands import WEBCAM_BANDS, shrunk_photo_views, views_result
    from cardref.datasets.webcam_view import FRAME_SIZE, WEBCAM_JPEG, table_frames

    def read(frame: np.ndarray) -> list[str]:
        return [c.card for c in det.detect(frame)]

    print(f"the same photos shrunk so that their median index lands mid-band (JPEG {WEBCAM_JPEG}), "
          f"as a webcam above the table shows real cards:")
    for band in WEBCAM_BANDS:
        views, too_small = shrunk_photo_views(photos, band)
        res = views_result(band, views, too_small, read)
        print(f"  index {band[0]:>2}-{band[1]:<2} px (median {res.index_px:.1f}; {res.scenes} photos, {res.cards} cards,"
              f" {too_small} already smaller): F1 {res.f1:.3f} (P {res.precision:.3f} R {res.recall:.3f})  "
              f"{cpu_tag()}")
        frames = table_frames(views)
        res = views_result(band, frames, 0, read)
        print(f"    laid out on {len(frames)} {FRAME_SIZE[0]}x{FRAME_SIZE[1]} frames, as one webcam frame shows many "
              f"cards: F1 {res.f1:.3f} (P {res.precision:.3f} R {res.recall:.3f})  {cpu_tag()}")


def main(argv: list[str] | None = None) -> int:
    args = _parse(list(argv or []))
    if args.merge_only:
        bench_merge()
        if args.scenes:
            bench_merge_scenes(args.scenes)
        return 0
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"cardref bench detect: --size must be WIDTHxHEIGHT, not {args.size!r}")
        return 2
    if args.frames <= 0:        # no speed figures: only the accuracy ones asked for
        print(f"CPU: {cpu_name()}; {isa_line()}")
        if args.accuracy:
            bench_accuracy(args, args.accuracy)
        if args.scale_bands:
            bench_scale_bands(args, args.scale_bands)
        return 0
    model_desc = args.model or default_model_paths()["torch"][0].with_suffix(".*")
    t0 = time.perf_counter()
    from cardref.datasets.frames import table_frames

    frames = table_frames(4, width=width, height=height, rendered=not args.drawn)
    print(f"detector benchmark: {len(frames)} {width}x{height} table frames ({time.perf_counter() - t0:.1f} s "
          f"to make), {args.frames} timed + {args.warmup} warm-up per backend, "
          f"{args.threads or default_threads()} threads, model {model_desc}")
    print(f"CPU: {cpu_name()}; {isa_line()}")
    results = bench_backends(args, frames)
    if not results:
        print("no backend could run (see notes above)")
        return 1
    fastest = min(results, key=results.get)
    try:
        auto = load_detector("auto", args.model).name
    except DetectorError:
        auto = "-"
    print(f"fastest: {fastest} ({1000 / results[fastest]:.1f} fps); default (auto) backend: {auto}  {cpu_tag()}")
    if args.gating:
        bench_gating(frames, results.get(auto))
    if args.accuracy:
        bench_accuracy(args, args.accuracy)
    if args.scale_bands:
        bench_scale_bands(args, args.scale_bands)
    if args.merge:
        bench_merge()
        if args.scenes:
            bench_merge_scenes(args.scenes)
    return 0
