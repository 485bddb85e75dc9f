"""The kit that lets one call of the lent GPU machine run the whole detector training.

The GPU machine (the ``device`` tool of this workplace) gets a copy of the checkout and
nothing else, at most 64 MiB of it, for 15 minutes a session; it has PyTorch, OpenCV,
ONNX and Pillow, but not Ultralytics, not the SVG deck packages, not ``rsvg-convert`` and
not the background packages.  So the scenes are rendered there, from the faces and
backgrounds this machine rendered once, carried in a compact form:

* ``faces/<design>/``: every usable design of the face cache (training designs and the
  held-out ones, which the validation split renders), each face as lossy WebP with its
  alpha (``FACE_QUALITY``), beside the design's ``meta.json`` (its corner boxes);
* ``backgrounds/``: the background cache's photographs, shrunk to ``BG_SIDE`` px;
* ``wheels/``: Ultralytics and ultralytics-thop, pure-Python wheels (polars, which
  Ultralytics reads its results file with, is 40 MB: :func:`cardref.datasets.train.train`
  reads that file itself where polars is missing);
* ``manifest.json``: what is in it and how big.

``cardref device-kit pack`` writes the kit into ``.devkit/`` (git-ignored) and says whether
the checkout and the kit together fit what a call may carry; ``tools/device_train.sh`` is
the command run there: it installs the wheels and the checkout, unpacks the kit into the
caches (:func:`unpack`, ``cardref device-kit unpack``), renders the scenes on the machine's
16 cores, trains the corner finder and the corner namer side by side on the GPU within a
budget, and leaves their checkpoints in ``$OUT``.  Fine-tuning on the real photos (which
never travel), export and evaluation then happen here (docs/vision-detector.md, "Training
on a lent GPU machine").
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

import cv2
from PIL import Image

from . import backgrounds, faces

REPO = Path(__file__).resolve().parent.parent
KIT_DIR = REPO / ".devkit"
#: What one call of the device tool may carry: the checkout and the kit together.
TRAVEL_LIMIT = 64 * 2**20
#: WebP quality of the faces (lossy, alpha kept): about a quarter of the PNGs' bytes.
FACE_QUALITY = 90
#: libwebp's effort (0-6): 4 packs the 63 designs in a few minutes; 6 took 17 and saved little.
FACE_METHOD = 4
#: Longer side and JPEG quality of the carried background photographs (the scenes crop and
#: scale them; 1024 px and quality 92 here).
BG_SIDE = 768
BG_QUALITY = 85
#: The packages that travel as wheels (pinned to the versions installed here).
WHEELS = ("ultralytics", "ultralytics-thop")
#: The device's Python (python3 there holds its PyTorch).
DEVICE_PYTHON = "3.12"


class KitError(RuntimeError):
    """The kit cannot be made or unpacked; the message says why."""


@dataclass
class KitReport:
    designs: list[str] = field(default_factory=list)
    faces: int = 0
    backgrounds: int = 0
    wheels: list[str] = field(default_factory=list)
    kit_bytes: int = 0
    tree_bytes: int = 0

    @property
    def total_bytes(self) -> int:
        return self.kit_bytes + self.tree_bytes

    @property
    def fits(self) -> bool:
        return self.total_bytes <= TRAVEL_LIMIT

    def summary(self) -> str:
        mib = 2**20
        return (f"{len(self.designs)} designs ({self.faces} faces), {self.backgrounds} backgrounds, "
                f"{len(self.wheels)} wheels: kit {self.kit_bytes / mib:.1f} MiB + checkout "
                f"{self.tree_bytes / mib:.1f} MiB = {self.total_bytes / mib:.1f} MiB of the "
                f"{TRAVEL_LIMIT / mib:.0f} MiB a call carries" + ("" if self.fits else ": TOO BIG"))


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def tree_bytes(repo: Path = REPO) -> int:
    """Bytes of what a device call sends besides the kit: the tracked files and the untracked
    files git does not ignore."""
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise KitError(f"cannot list the checkout's files with git in {repo}: {exc}") from exc
    total = 0
    for name in out.decode().split("\0"):
        p = repo / name
        if name and p.is_file():
            total += p.stat().st_size
    return total


def pack_faces(faces_dir: Path, out: Path, quality: int = FACE_QUALITY) -> tuple[list[str], int]:
    """Every usable design of ``faces_dir`` into ``out/<design>/`` (faces as WebP); returns
    the design names and the number of faces."""
    designs, n = [], 0
    for src in faces.cached_sources(faces_dir):  # the designs the library on the GPU machine will list
        d = faces_dir / src.name
        dest = out / d.name
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(d / "meta.json", dest / "meta.json")
        for png in sorted(d.glob("*.png")):
            with Image.open(png) as im:
                im.convert("RGBA").save(dest / f"{png.stem}.webp", "WEBP", quality=quality, method=FACE_METHOD)
            n += 1
        designs.append(d.name)
    if not designs:
        raise KitError(f"no usable design in the face cache {faces_dir}: render it first (cardref gen-data builds it)")
    return designs, n


def pack_backgrounds(bg_dir: Path, out: Path, side: int = BG_SIDE, quality: int = BG_QUALITY) -> int:
    """The background cache's photographs into ``out``, shrunk to ``side`` px; returns how many."""
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for jpg in sorted(bg_dir.glob("*.jpg")) if bg_dir.is_dir() else []:
        im = cv2.imread(str(jpg), cv2.IMREAD_COLOR)
        if im is None:
            continue
        cv2.imwrite(str(out / jpg.name), backgrounds.shrunk(im, side), [cv2.IMWRITE_JPEG_QUALITY, quality])
        n += 1
    return n


def download_wheels(dest: Path, packages: tuple[str, ...] = WHEELS) -> list[str]:
    """The wheels of ``packages``, at the versions installed here, for the device's Python
    (``pip download`` from the package registry)."""
    dest.mkdir(parents=True, exist_ok=True)
    specs = []
    for name in packages:
        try:
            specs.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError as exc:
            raise KitError(f"{name} is not installed here (tools/setup.sh installs it)") from exc
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--python-version", DEVICE_PYTHON, "--implementation", "cp", "--platform", "manylinux2014_x86_64",
           "-d", str(dest), *specs]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise KitError(f"pip download {' '.join(specs)} failed: {(r.stderr or r.stdout).strip()[-400:]}")
    return sorted(p.name for p in dest.glob("*.whl"))


def pack(out: Path = KIT_DIR, *, faces_dir: Path = faces.CACHE_DIR, bg_dir: Path = backgrounds.CACHE_DIR,
         wheels_from: Path | None = None, download: bool = True, repo: Path = REPO) -> KitReport:
    """Write the kit into ``out`` (replacing an earlier one) and report its size."""
    if out.exists():
        if any(out.iterdir()) and not (out / "manifest.json").is_file():
            raise KitError(f"{out} is not empty and holds no kit (no manifest.json): choose another folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    report = KitReport()
    report.designs, report.faces = pack_faces(faces_dir, out / "faces")
    report.backgrounds = pack_backgrounds(bg_dir, out / "backgrounds")
    wheels = out / "wheels"
    if wheels_from is not None:
        wheels.mkdir()
        for whl in sorted(Path(wheels_from).glob("*.whl")):
            shutil.copyfile(whl, wheels / whl.name)
        report.wheels = sorted(p.name for p in wheels.glob("*.whl"))
    elif download:
        report.wheels = download_wheels(wheels)
    report.tree_bytes = tree_bytes(repo) if (repo / ".git").exists() else 0
    (out / "manifest.json").write_text(json.dumps({**asdict(report), "face_quality": FACE_QUALITY,
                                                    "background_side": BG_SIDE}, indent=1) + "\n")
    report.kit_bytes = _dir_bytes(out)
    return report


def unpack(kit: Path = KIT_DIR, *, faces_dir: Path = faces.CACHE_DIR,
           bg_dir: Path = backgrounds.CACHE_DIR) -> tuple[int, int]:
    """The kit's faces and backgrounds into the caches the scene renderer reads (the faces
    as PNG again); returns (designs, backgrounds) unpacked.  A design or background the
    cache already holds is kept as it is: a machine that rendered its own faces keeps them,
    not the kit's lossy copies."""
    src = kit / "faces"
    if not src.is_dir():
        raise KitError(f"{kit} holds no faces/: make the kit with `cardref device-kit pack`")
    designs = 0
    for d in sorted(p for p in src.iterdir() if p.is_dir()):
        if not (d / "meta.json").is_file():
            raise KitError(f"{d} has no meta.json: the kit is incomplete, pack it again")
        dest = faces_dir / d.name
        if (dest / "meta.json").is_file():
            continue
        dest.mkdir(parents=True, exist_ok=True)
        for webp in sorted(d.glob("*.webp")):
            with Image.open(webp) as im:
                im.convert("RGBA").save(dest / f"{webp.stem}.png")
        shutil.copyfile(d / "meta.json", dest / "meta.json")  # last: a half-unpacked design is not usable
        designs += 1
    bg_dir.mkdir(parents=True, exist_ok=True)
    n_bg = 0
    for jpg in sorted((kit / "backgrounds").glob("*.jpg")):
        if not (bg_dir / jpg.name).exists():
            shutil.copyfile(jpg, bg_dir / jpg.name)
            n_bg += 1
    return designs, n_bg
