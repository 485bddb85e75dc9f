"""Table-top backgrounds: photographs and patterns from Debian packages, plus procedural ones.

Photographic and pattern sources (installed with apt-get when missing):

* ``gnome-backgrounds`` (``/usr/share/backgrounds/gnome``),
* ``plasma-workspace-wallpapers`` (``/usr/share/wallpapers/*/contents/images``),
* ``gimp-data`` patterns (``/usr/share/gimp/2.0/patterns/**/*.pat``: fabric, wood, stone, paper...).

Each source image is decoded once, shrunk to at most 1024 px and cached as JPEG under
``datasets/cache/backgrounds`` (git-ignored).  Procedural backgrounds (felt, wood grain,
checked and striped cloth, printed tablecloths, noise) need no files.
"""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

CACHE_DIR = Path(__file__).resolve().parent / "cache" / "backgrounds"
APT_PACKAGES = ("gnome-backgrounds", "plasma-workspace-wallpapers", "gimp-data")
MAX_SIDE = 1024

GNOME_DIR = Path("/usr/share/backgrounds/gnome")
PLASMA_DIR = Path("/usr/share/wallpapers")
GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")


def ensure_packages() -> None:
    """Install the background packages with apt-get if none of their files are present."""
    if GNOME_DIR.exists() or PLASMA_DIR.exists() or GIMP_PATTERNS.exists():
        return
    apt = shutil.which("apt-get")
    if apt is None:
        return  # procedural backgrounds still work
    subprocess.run([apt, "install", "-y", "--no-install-recommends", *APT_PACKAGES], check=False)


def _source_files() -> list[Path]:
    files: list[Path] = []
    if GNOME_DIR.exists():
        files += sorted(p for p in GNOME_DIR.iterdir() if p.suffix in (".webp", ".jpg", ".png", ".svg"))
    if PLASMA_DIR.exists():
        for wp in sorted(PLASMA_DIR.iterdir()):
            for sub in ("images", "images_dark"):
                imgs = sorted((wp / "contents" / sub).glob("*.*"))
                imgs = [p for p in imgs if p.suffix in (".jpg", ".png")]
                if not imgs:
                    continue

                def width(p: Path) -> int:
                    try:
                        return int(p.stem.split("x")[0])
                    except ValueError:
                        return 10**6

                big = [p for p in imgs if width(p) >= 1280]
                files.append(min(big, key=width) if big else max(imgs, key=width))
    if GIMP_PATTERNS.exists():
        files += sorted(GIMP_PATTERNS.rglob("*.pat"))
    return files


def read_gimp_pattern(path: Path) -> np.ndarray:
    """Decode a GIMP ``.pat`` pattern to an RGB uint8 array."""
    data = path.read_bytes()
    header_size, _version, w, h, depth = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT" or depth not in (1, 2, 3, 4):
        raise ValueError(f"{path}: not a GIMP pattern")
    px = np.frombuffer(data[header_size : header_size + w * h * depth], np.uint8).reshape(h, w, depth)
    if depth in (1, 2):
        return np.repeat(px[:, :, :1], 3, axis=2)
    return np.ascontiguousarray(px[:, :, :3])


def _load_any(path: Path) -> np.ndarray | None:
    if path.suffix == ".pat":
        pat = read_gimp_pattern(path)
        # patterns are small tiles: tile them up to a table-sized image
        reps = (max(1, 512 // pat.shape[0] + 1), max(1, 512 // pat.shape[1] + 1), 1)
        return np.tile(pat, reps)
    if path.suffix == ".svg":
        r = subprocess.run(["rsvg-convert", "-w", str(MAX_SIDE), str(path)], capture_output=True)
        if r.returncode != 0:
            return None
        im = cv2.imdecode(np.frombuffer(r.stdout, np.uint8), cv2.IMREAD_COLOR)
        return None if im is None else im[:, :, ::-1]
    im = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if im is None:
        try:
            from PIL import Image

            return np.asarray(Image.open(path).convert("RGB"))
        except Exception:  # noqa: BLE001 - an unreadable wallpaper is skipped
            return None
    return im[:, :, ::-1]


def shrunk(im: np.ndarray, side: int) -> np.ndarray:
    """``im`` shrunk (by pixel area) so that its longer side is at most ``side`` px."""
    s = side / max(im.shape[:2])
    if s >= 1:
        return im
    return cv2.resize(im, (round(im.shape[1] * s), round(im.shape[0] * s)), interpolation=cv2.INTER_AREA)


def _cached(path: Path) -> Path | None:
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1(str(path).encode()).hexdigest()[:16]
    out = CACHE_DIR / f"{key}.jpg"
    if out.exists():
        return out
    im = _load_any(path)
    if im is None or im.size == 0:
        return None
    im = shrunk(im, MAX_SIDE)
    cv2.imwrite(str(out), np.ascontiguousarray(im[:, :, ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


@lru_cache(maxsize=1)
def photo_paths() -> tuple[Path, ...]:
    """Cached JPEGs of all packaged backgrounds (built on first use)."""
    carried = tuple(sorted(CACHE_DIR.glob("*.jpg"))) if CACHE_DIR.is_dir() else ()
    if carried and not (GNOME_DIR.exists() or PLASMA_DIR.exists() or GIMP_PATTERNS.exists()):
        # no background packages here (the lent GPU machine): the cache carried to it
        # (``cardref device-kit``) is the library
        return carried
    ensure_packages()
    out = [_cached(p) for p in _source_files()]
    return tuple(p for p in out if p is not None)


@lru_cache(maxsize=256)
def load_photo(path: Path) -> np.ndarray:
    im = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if im is None:
        raise FileNotFoundError(path)
    return np.ascontiguousarray(im[:, :, ::-1])


# --------------------------------------------------------------------------- procedural


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    g = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _random_colour(rng: np.random.Generator, sat: tuple[float, float] = (0.2, 0.9),
                   val: tuple[float, float] = (0.2, 0.9)) -> np.ndarray:
    hsv = np.uint8([[[rng.integers(0, 180), int(255 * rng.uniform(*sat)), int(255 * rng.uniform(*val))]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32)


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _random_colour(rng, (0.3, 0.9), (0.15, 0.6))
    if rng.random() < 0.5:  # classic green/blue/red felt
        base = np.array([[30, 100, 50], [25, 60, 110], [120, 30, 35], [40, 40, 45]][rng.integers(0, 4)], np.float32)
        base *= rng.uniform(0.7, 1.3)
    fine = rng.normal(0, rng.uniform(4, 14), (h, w, 1)).astype(np.float32)
    low = (_smooth_noise(rng, h, w, rng.uniform(30, 120))[:, :, None] - 0.5) * rng.uniform(10, 40)
    return np.clip(base + fine + low, 0, 255).astype(np.uint8)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array([rng.uniform(90, 200), rng.uniform(55, 130), rng.uniform(20, 80)], np.float32)
    ang = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = xx * np.cos(ang) + yy * np.sin(ang)
    warp = _smooth_noise(rng, h, w, rng.uniform(40, 150)) * rng.uniform(10, 60)
    freq = rng.uniform(0.05, 0.3)
    grain = np.sin((t + warp) * freq) * 0.5 + 0.5
    grain = grain ** rng.uniform(1, 4)
    fine = rng.normal(0, 5, (h, w)).astype(np.float32)
    shade = 1 - rng.uniform(0.15, 0.45) * grain + fine / 255
    out = base[None, None, :] * shade[:, :, None]
    if rng.random() < 0.4:  # planks
        period = rng.uniform(60, 200)
        seams = (np.mod(t, period) < rng.uniform(1, 3)).astype(np.float32)
        out *= (1 - 0.4 * seams)[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    c1, c2 = _random_colour(rng), _random_colour(rng, (0.0, 0.6), (0.5, 1.0))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    period = rng.uniform(8, 60)
    kind = rng.integers(0, 4)
    if kind == 0:  # gingham checks
        m = ((np.mod(u, period) < period / 2).astype(np.float32) + (np.mod(v, period) < period / 2)) / 2
    elif kind == 1:  # stripes
        m = (np.mod(u, period) < period * rng.uniform(0.2, 0.6)).astype(np.float32)
    elif kind == 2:  # polka dots
        du, dv = np.mod(u, period) - period / 2, np.mod(v, period) - period / 2
        m = (du * du + dv * dv < (period * rng.uniform(0.15, 0.35)) ** 2).astype(np.float32)
    else:  # woven texture
        m = 0.5 + 0.25 * np.sin(u * 2 * np.pi / period * 4) * np.sin(v * 2 * np.pi / period * 4)
    m = cv2.GaussianBlur(m, (0, 0), 0.7)[:, :, None]
    out = c1 * (1 - m) + c2 * m + rng.normal(0, rng.uniform(2, 10), (h, w, 1))
    return np.clip(out, 0, 255).astype(np.uint8)


def printed(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A tablecloth printed with random shapes (and some letters: hard negatives)."""
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _random_colour(rng, (0.0, 0.7), (0.4, 1.0)).astype(np.uint8)
    for _ in range(int(rng.integers(10, 60))):
        col = tuple(int(c) for c in _random_colour(rng))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.integers(3, max(4, min(h, w) // 6)))
        k = rng.integers(0, 4)
        if k == 0:
            cv2.circle(img, (x, y), r, col, -1 if rng.random() < 0.6 else 2, cv2.LINE_AA)
        elif k == 1:
            cv2.rectangle(img, (x, y), (x + r, y + int(r * rng.uniform(0.3, 2))), col, -1)
        elif k == 2:
            pts = rng.integers(-r, r, (5, 2)) + np.array([x, y])
            cv2.fillPoly(img, [pts.astype(np.int32)], col, cv2.LINE_AA)
        else:
            text = "".join(rng.choice(list("0123456789AJQKBCDEFGHMNOPRSTUVWXYZ"), int(rng.integers(1, 4))))
            cv2.putText(img, text, (x, y), int(rng.integers(0, 8)), rng.uniform(0.3, 1.5), col,
                        int(rng.integers(1, 3)), cv2.LINE_AA)
    return np.clip(img.astype(np.float32) + rng.normal(0, 4, (h, w, 1)), 0, 255).astype(np.uint8)


def plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _random_colour(rng, (0.0, 0.5), (0.3, 0.98))
    low = (_smooth_noise(rng, h, w, rng.uniform(50, 200))[:, :, None] - 0.5) * rng.uniform(5, 40)
    return np.clip(base + low + rng.normal(0, rng.uniform(1, 6), (h, w, 1)), 0, 255).astype(np.uint8)


PROCEDURAL = (felt, wood, cloth, printed, plain)


def random_background(rng: np.random.Generator, h: int, w: int, photo_share: float = 0.45) -> np.ndarray:
    """An RGB table texture of ``h`` x ``w`` pixels."""
    photos = photo_paths()
    if photos and rng.random() < photo_share:
        im = load_photo(photos[int(rng.integers(0, len(photos)))])
        zoom = rng.uniform(0.5, 2.0)
        ch, cw = min(im.shape[0], max(8, int(h / zoom))), min(im.shape[1], max(8, int(w / zoom)))
        y0 = int(rng.integers(0, im.shape[0] - ch + 1))
        x0 = int(rng.integers(0, im.shape[1] - cw + 1))
        crop = im[y0 : y0 + ch, x0 : x0 + cw]
        out = cv2.resize(crop, (w, h), interpolation=cv2.INTER_LINEAR)
        if rng.random() < 0.5:
            out = np.ascontiguousarray(np.rot90(out, int(rng.integers(1, 4)))) if h == w else out
        return out
    fn = PROCEDURAL[int(rng.integers(0, len(PROCEDURAL)))]
    return fn(rng, h, w)
