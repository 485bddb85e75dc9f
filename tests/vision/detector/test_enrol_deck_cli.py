"""``cardref enrol-deck``: a laid-out deck (a simulated frame through the shipped detector)
becomes a profile that ``cardref detect --deck`` and ``cardref watch --deck`` use; bad input
is refused with a reason and the preview shows what was found."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.cli import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def layout(tmp_path_factory) -> tuple[Path, list]:
    from cardref.vision.simulate.layout import render_layout

    if not (ROOT / "models" / "corner-namer.onnx").exists():
        pytest.fail("the shipped corner namer is missing")
    frame, truth, _ = render_layout(4, 7, design="aisleriot-anglo_modern", split="heldout")
    path = tmp_path_factory.mktemp("layout") / "layout.png"
    cv2.imwrite(str(path), frame)
    return path, truth


def test_a_layout_photo_becomes_a_profile_that_detect_uses(layout, tmp_path, capsys) -> None:
    image, _truth = layout
    out = tmp_path / "decks" / "anglo"
    # a few steps of adapting the namer (the default is 200, about a minute on two cores)
    assert main(["enrol-deck", str(image), "--out", str(out), "--label", "Anglo modern", "--adapt-steps", "10"]) == 0
    text = capsys.readouterr().out
    assert "enrolled 'Anglo modern'" in text and "wrote" in text
    assert "adapted to the deck in 10 steps" in text and "step 10/10" in text
    profile = tmp_path / "decks" / "anglo.npz"
    assert profile.is_file() and (tmp_path / "decks" / "anglo.png").is_file()
    from cardref.vision.detector.deck import DeckProfile

    assert DeckProfile.load(profile).namer_onnx  # detect below names the corners with the adapted namer
    assert main(["detect", str(image), "--deck", str(profile), "--scales", "1", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out.splitlines()[-1])["cards"]
    assert len(cards) >= 50
    # a second enrolment does not overwrite the first without --force
    assert main(["enrol-deck", str(image), "--out", str(profile)]) == 2
    assert "exists" in capsys.readouterr().err


def test_labelled_photos_enrol_a_deck(layout, tmp_path, capsys) -> None:
    image, truth = layout
    frame = cv2.imread(str(image))
    h, w = frame.shape[:2]
    (tmp_path / "set" / "images").mkdir(parents=True)
    (tmp_path / "set" / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "set" / "images" / "a.jpg"), frame)
    codes = sorted({d.card for d in truth})
    lines = []
    for d in truth:
        for c in d.corners:
            x1, y1, x2, y2 = c.box
            lines.append(f"{codes.index(d.card)} {(x1 + x2) / 2 / w} {(y1 + y2) / 2 / h} {(x2 - x1) / w} {(y2 - y1) / h}")
    (tmp_path / "set" / "labels" / "a.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "set" / "data.yaml").write_text(json.dumps({"names": codes}))
    assert main(["enrol-deck", "--labelled", str(tmp_path / "set"), "--out", str(tmp_path / "lab.npz"),
                 "--adapt-steps", "0"]) == 0
    assert f"({len(codes)} card codes)" in capsys.readouterr().out


def test_a_frame_without_a_layout_is_refused_with_the_preview(tmp_path, capsys) -> None:
    empty = tmp_path / "table.png"
    cv2.imwrite(str(empty), np.full((720, 1280, 3), (40, 110, 50), np.uint8))
    assert main(["enrol-deck", str(empty), "--out", str(tmp_path / "d.npz")]) == 2
    err = capsys.readouterr().err
    assert "should show 54 cards" in err and "0 were found" in err and (tmp_path / "d.png").is_file()
    assert not (tmp_path / "d.npz").exists()


def test_bad_sources_and_profiles_are_clear_errors(tmp_path, capsys) -> None:
    assert main(["enrol-deck", str(tmp_path / "a.jpg"), "--out", str(tmp_path / "d.npz"), "--adapt-steps", "-1"]) == 2
    assert "--adapt-steps is 0 or more" in capsys.readouterr().err
    assert main(["enrol-deck", str(tmp_path / "missing.jpg"), "--out", str(tmp_path / "d.npz")]) == 2
    assert "not a readable image" in capsys.readouterr().err
    assert main(["enrol-deck", "--labelled", str(tmp_path), "--out", str(tmp_path / "d.npz")]) == 2
    assert "data.yaml" in capsys.readouterr().err
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"junk")
    cv2.imwrite(str(tmp_path / "frame.png"), np.zeros((64, 64, 3), np.uint8))
    assert main(["detect", str(tmp_path / "frame.png"), "--deck", str(junk)]) == 2
    assert "unreadable" in capsys.readouterr().err
    log = tmp_path / "log.jsonl"
    assert main(["watch", "--video", str(tmp_path / "none.mp4"), "--game", "guafeng-zibo", "--out", str(log),
                 "--deck", str(tmp_path / "nope.npz")]) == 2
    assert "deck profile not found" in capsys.readouterr().err


def test_a_frame_of_a_video_can_be_enrolled(layout, tmp_path, capsys) -> None:
    from cardref.vision.simulate import open_video_writer

    image, _truth = layout
    frame = cv2.imread(str(image))
    video = tmp_path / "layout.mp4"
    writer = open_video_writer(str(video), 10.0, (frame.shape[1], frame.shape[0]))
    for _ in range(5):
        writer.write(frame)
    writer.release()
    assert main(["enrol-deck", "--video", str(video), "--at", "0.2", "--out", str(tmp_path / "v.npz"),
                 "--adapt-steps", "0"]) == 0
    from cardref.vision.detector.deck import DeckProfile

    capsys.readouterr()
    assert DeckProfile.load(tmp_path / "v.npz").source == f"{video} at 0.2 s"
    assert main(["enrol-deck", "--video", str(tmp_path / "missing.mp4"), "--out", str(tmp_path / "w.npz")]) == 2
    assert "missing.mp4" in capsys.readouterr().err


def test_simulate_writes_a_layout_of_the_deals_deck(tmp_path, capsys) -> None:
    out = tmp_path / "sim"
    assert main(["simulate", "--game", "guafeng-zibo", "--seed", "2", "--out", str(out), "--max-plays", "1",
                 "--no-video", "--layout", "--designs", "heldout"]) == 0
    assert "layout.png" in capsys.readouterr().out
    frame = cv2.imread(str(out / "layout.png"))
    assert frame is not None and frame.shape == (720, 1280, 3)
