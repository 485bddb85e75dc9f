"""Known wrong labels of the shared real-cards set, and their corrections.

The real-cards README warns that a few labels are loose.  Three are wrong outright: each
names another card than the photo shows, in the index print itself, so every figure scored
on those photos counted the detector's right reading as a phantom and the label's card as
missed (and the confidence calibration took them for confident errors: they were the
top-scoring "wrong" cards in every view).  They were found by listing every card the
detector read from two agreeing indices with evidence 0.98 or more that the labels did not
hold (576 photos, 2026-12-06: these three and no other), then looking at each photo.

The shared data is never edited; :func:`corrected` is applied where the labels are mapped
into our class order (:func:`.evaluate.mapped_real_cards`), so evaluation, calibration and
fine-tuning all read the corrected labels.
"""

from __future__ import annotations

from collections.abc import Mapping

#: photo stem -> {labelled code: the code the photo shows}, each with what the photo shows.
FIXES: Mapping[str, Mapping[str, str]] = {
    # a jack of clubs: a club beside both indices' J; labelled the jack of spades
    "phone-android-IMG_20220921_201314": {"JS": "JC"},
    # an ace of clubs, an A over a club at both corners (beside a five of diamonds); labelled QC
    "phone-iphone-IMG_7768": {"QC": "AC"},
    # a seven of spades: a 7 at both corners and seven pips; labelled the six of spades
    "phone-iphone-IMG_7794": {"6S": "7S"},
}


def corrected(stem: str, code: str, fixes: Mapping[str, Mapping[str, str]] = FIXES) -> str:
    """The code of a label of photo ``stem``: ``code``, or its correction."""
    return fixes.get(stem, {}).get(code, code)
