"""The namer's phone-photo flaws (datasets/patch_training.py: perspective, glare, dots): each
changes only the share of patches it draws, the way it says, and stays in 0..1; the
augmentation applies them only when asked (namers up to n12 were trained without)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from cardref.datasets.namer_train import augment  # noqa: E402
from cardref.datasets.patch_training import glared, keystoned, speckled  # noqa: E402


def _stripes(n: int = 400):  # noqa: ANN202
    x = torch.full((n, 3, 32, 32), 0.2)
    x[:, :, :, ::4] = 0.9  # upright stripes: a perspective shows them converging
    return x


def _drawn(flaw, seed: int, p: float, share: tuple[int, int]):  # noqa: ANN001, ANN202
    """Striped patches through ``flaw`` at share ``p``: (before, after, which it changed), after
    checking that it changed a share in ``share`` (of 400) and left the others as they were."""
    x = _stripes()
    out = flaw(x.clone(), torch.Generator().manual_seed(seed), p=p)
    changed = (out != x).flatten(1).any(1)
    assert share[0] < int(changed.sum()) < share[1]
    assert torch.equal(out[~changed], x[~changed])
    return x, out, changed


def test_keystoned_draws_its_share_and_makes_parallel_lines_converge() -> None:
    _, out, changed = _drawn(keystoned, 0, 0.3, (80, 160))
    # a homography of random corners is not a shift: the stripes' columns no longer line up
    # from the top row to the bottom one in the patches it drew
    top, bottom = out[changed][:, 0, 2], out[changed][:, 0, -3]
    assert float((top - bottom).abs().mean()) > 0.05
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0


def test_glared_lifts_a_band_towards_white_and_nothing_darker() -> None:
    x, out, changed = _drawn(glared, 1, 0.5, (150, 250))
    assert bool((out >= x - 1e-6).all()) and float(out.max()) <= 1.0
    # a band, not a wash: within a changed patch some pixels are lifted far more than others
    lift = (out[changed] - x[changed]).mean(1).flatten(1)
    assert float((lift.amax(1) - lift.amin(1)).mean()) > 0.05


def test_speckled_sets_a_few_pixels_to_black_or_white() -> None:
    x = torch.full((300, 3, 32, 32), 0.5)
    out = speckled(x.clone(), torch.Generator().manual_seed(2), p=0.5, most=0.02)
    dots = (out != 0.5).any(1)
    per_patch = dots.flatten(1).float().mean(1)
    drawn = per_patch > 0
    assert 110 < int(drawn.sum()) < 190
    assert float(per_patch.max()) <= 0.04
    assert set(torch.unique(out[(out != 0.5)]).tolist()) <= {0.0, 1.0}


def test_the_augmentation_adds_the_flaws_only_when_asked() -> None:
    x = torch.rand(64, 3, 32, 32)
    plain = augment(x.clone(), torch.Generator().manual_seed(3), photo_flaws=0.0)
    again = augment(x.clone(), torch.Generator().manual_seed(3), photo_flaws=0.0)
    flawed = augment(x.clone(), torch.Generator().manual_seed(3), photo_flaws=1.0)
    assert torch.equal(plain, again)
    assert not torch.equal(plain, flawed)
    assert float(flawed.min()) >= 0.0 and float(flawed.max()) <= 1.0
    assert flawed.shape == x.shape
