"""``cardref detect``: JSON shape, table, --save, and bad input reported per file."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from cardref.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "detector"
ONNX = FIXTURES / "tiny.onnx"
FRAMES = sorted(FIXTURES.glob("*.jpg"))


def _detect(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["detect", "--model", str(ONNX), "--backend", "onnx", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_is_one_object_per_image(capsys) -> None:
    code, out, err = _detect(capsys, "--json", *map(str, FRAMES))
    assert code == 0, err
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["image"] for o in objs] == [str(p) for p in FRAMES]
    n_cards = 0
    for obj in objs:
        assert set(obj) == {"image", "cards"}
        for card in obj["cards"]:
            assert set(card) == {"card", "conf", "box"}
            assert isinstance(card["card"], str) and 0 < card["conf"] <= 1
            x1, y1, x2, y2 = card["box"]
            assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 360
            n_cards += 1
    assert n_cards >= 4


def test_folder_table_and_save(capsys, tmp_path: Path) -> None:
    code, out, err = _detect(capsys, str(FIXTURES), "--save", str(tmp_path))
    assert code == 0, err
    for p in FRAMES:
        assert str(p) in out
        saved = cv2.imread(str(tmp_path / p.name))
        assert saved is not None and saved.shape == cv2.imread(str(p)).shape
    assert "2 images" in out


def test_bad_files_are_reported_and_the_rest_processed(capsys, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8 not really a jpeg")
    missing = tmp_path / "missing.png"
    code, out, err = _detect(capsys, "--json", str(corrupt), str(missing), str(FRAMES[0]))
    assert code == 0
    assert str(corrupt) in err and str(missing) in err
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(FRAMES[0])]


def test_nothing_processable_exits_non_zero(capsys, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(b"garbage")
    code, _, err = _detect(capsys, str(corrupt))
    assert code == 1 and str(corrupt) in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = _detect(capsys, str(empty))
    assert code == 2 and str(empty) in err and "no images" in err


def test_missing_model_is_named(capsys, tmp_path: Path) -> None:
    model = tmp_path / "cards.onnx"
    code = main(["detect", "--model", str(model), str(FRAMES[0])])
    err = capsys.readouterr().err
    assert code == 2 and str(model) in err


@pytest.mark.parametrize("backend", ["torch", "onnx"])
def test_backends_print_the_same_json(capsys, backend: str) -> None:
    model = FIXTURES / ("tiny.pt" if backend == "torch" else "tiny.onnx")
    assert main(["detect", "--json", "--backend", backend, "--model", str(model), str(FRAMES[0])]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    reference = json.loads(_detect(capsys, "--json", str(FRAMES[0]))[1])["cards"]
    assert [c["card"] for c in cards] == [c["card"] for c in reference]
    assert all(abs(a - b) <= 1.0 for c, r in zip(cards, reference, strict=True) for a, b in zip(c["box"], r["box"],
                                                                                                 strict=True))


def test_save_never_overwrites_the_input(capsys, tmp_path: Path) -> None:
    image = tmp_path / FRAMES[0].name
    image.write_bytes(FRAMES[0].read_bytes())
    code, _, err = _detect(capsys, str(image), "--save", str(tmp_path))
    assert code == 0, err
    assert image.read_bytes() == FRAMES[0].read_bytes()
    assert (tmp_path / f"{image.stem}-detected{image.suffix}").is_file()


def test_scales_option(capsys) -> None:
    # default: the photo scales (as it is + half size); '--scales 1' looks at the frame once
    code, pooled, err = _detect(capsys, "--json", str(FRAMES[0]))
    assert code == 0, err
    code, once, err = _detect(capsys, "--json", "--scales", "1", str(FRAMES[0]))
    assert code == 0, err
    assert len(json.loads(once)["cards"]) >= 1 and len(json.loads(pooled)["cards"]) >= 1
    code, _, err = _detect(capsys, "--scales", "1.5", str(FRAMES[0]))
    assert code == 2 and "scales" in err


def test_no_int8_runs_the_float_models(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardref.vision.detector as detector

    seen = []
    real = detector.load_detector

    def spy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        seen.append(kwargs.get("int8", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(detector, "load_detector", spy)
    assert _detect(capsys, "--json", str(FRAMES[0]))[0] == 0
    assert _detect(capsys, "--json", "--no-int8", str(FRAMES[0]))[0] == 0
    assert seen == [True, False]


def test_a_bad_enlarge_is_a_clear_error(capsys) -> None:
    code, _, err = _detect(capsys, "--enlarge", "0.5", str(FRAMES[0]))
    assert code == 2 and "enlarged look must be 1 (none) or more" in err


def test_enlarge_one_takes_no_enlarged_look(capsys, tmp_path: Path) -> None:
    """A frame shrunk until its indices are small (or none is confident) is looked at again
    enlarged by default; with --enlarge 1 never."""
    import cv2

    frame = cv2.imread(str(FRAMES[0]))
    small = tmp_path / "far.png"
    cv2.imwrite(str(small), cv2.resize(frame, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA))
    code, out, _ = _detect(capsys, "--trace-rules", "--enlarge", "1", str(small))
    assert code == 0 and "enlarged-look" not in out
    code, out, _ = _detect(capsys, "--trace-rules", str(small))
    assert code == 0 and "rule enlarged-look: indices small" in out
