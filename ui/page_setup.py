"""Setup: game and variant, player names, deal options, declarations entered by the
referee, plays entered by hand, and calibration (markers found, or the four corners)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import streamlit as st

from cardref.engine import registry
from cardref.engine.events import GAME_SEATS
from cardref.engine.registry import is_gouji

from . import clickpick, screen, state
from . import components as C
from .i18n import declare_title, declares_for, game_title, seat_title, tr
from .model import check_cards

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
TRUMPS = ["S", "H", "D", "C", None]


def deal_event(game: str, names: list[str], options: dict[str, Any], hand_size: int | None) -> dict[str, Any]:
    """The ``deal`` event the setup form makes (names travel as an extra key)."""
    seats = GAME_SEATS[game]
    ev: dict[str, Any] = {"type": "deal", "game": game, "seats": seats}
    ev.update({k: v for k, v in options.items()})
    if any(n.strip() for n in names):
        ev["names"] = [n.strip() for n in names]
    if hand_size:
        ev["hand_sizes"] = [int(hand_size)] * seats
    ev["source"] = "manual"
    return ev


def watched_game(log: Any) -> str | None:
    """The game being watched: the live table's ``--game``, else the log's last deal."""
    cfg, _ = state.config()
    if cfg.live and cfg.game in GAME_SEATS:
        return cfg.game
    game = _current_game(log)
    if game in GAME_SEATS:
        return game
    return cfg.game if cfg.game in GAME_SEATS else None


def previous_options(log: Any) -> dict[str, Any]:
    """Deal options the previous deal of the match hands on: its next dealer and level
    (升级, from its summary's ``level_change``), or the leader it names (够级: the 大落 of the
    last deal leads, 004:17).  Empty when nothing is known."""
    if log is None:
        return {}
    result = log.result()
    if not result.deals:
        return {}
    from .views import safe_summary

    run = result.deals[-1]
    summ = safe_summary(run)
    out: dict[str, Any] = {}
    lc = summ.get("level_change")
    if isinstance(lc, dict):
        if isinstance(lc.get("next_dealer"), int):
            out["dealer"] = lc["next_dealer"]
        if isinstance(lc.get("next_level"), str):
            out["level"] = lc["next_level"]
    order = summ.get("order")
    if isinstance(order, list) and order and isinstance(order[-1], int):
        out["leader"] = order[-1]
    if not isinstance(lc, dict):  # nothing decided yet: the same options again
        for k in ("level", "dealer", "leader"):
            if run.deal.options.get(k) is not None:
                out.setdefault(k, run.deal.options[k])
    return out


def _index(options: list[Any], value: Any) -> int:
    return options.index(value) if value in options else 0


def _deal_form(lang: str, writable: bool, key: str = "su", game: str | None = None) -> bool:
    """Game, players and the deal's options, then 开始新的一局; returns True when a deal was
    started.  The game being watched is preselected (``game`` fixes it: the live page)."""
    log = state.active_log()
    games = list(GAME_SEATS)
    watched = game or watched_game(log)
    before = previous_options(log)
    if game is None:
        st.markdown(f"#### {tr('setup.game', lang)}")
        game = st.selectbox(tr("setup.game", lang), games, format_func=lambda g: game_title(g, lang), key=f"{key}_game",
                            index=_index(games, watched), label_visibility="collapsed")
    seats = GAME_SEATS[game]
    st.markdown(f"**{tr('setup.names', lang)}**")
    cols = st.columns(seats)
    names = [cols[s].text_input(seat_title(s, seats, lang), key=f"{key}_name_{s}") for s in range(seats)]
    label = [seat_title(s, seats, lang) + (f"·{n.strip()}" if n.strip() else "") for s, n in enumerate(names)]
    st.markdown(f"**{tr('setup.options', lang)}**")
    if before:
        st.caption(tr("setup.from_previous", lang))
    options: dict[str, Any] = {}
    c = st.columns(4)
    seat_range = list(range(seats))
    if is_gouji(game):
        options["leader"] = c[0].selectbox(tr("setup.leader", lang), seat_range, format_func=lambda s: label[s],
                                           key=f"{key}_leader", index=_index(seat_range, before.get("leader")))
    else:
        options["level"] = c[0].selectbox(tr("setup.level", lang), LEVELS, key=f"{key}_level",
                                          index=_index(LEVELS, before.get("level")))
        options["trump"] = c[1].selectbox(tr("setup.trump", lang), TRUMPS, key=f"{key}_trump",
                                          format_func=lambda t: tr(f"setup.suit_{t}", lang) if t in ("S", "H", "D", "C")
                                          else tr("setup.no_trump", lang))
        options["dealer"] = c[2].selectbox(tr("setup.dealer", lang), seat_range, format_func=lambda s: label[s],
                                           key=f"{key}_dealer", index=_index(seat_range, before.get("dealer")))
        team_label = ["/".join(seat_title(x, seats, lang) for x in seat_range if x % 2 == t) for t in (0, 1)]
        levels = [c[3].selectbox(f"{tr('score.levels', lang)} {team_label[t]}", LEVELS, key=f"{key}_tlevel_{t}")
                  for t in (0, 1)]
        options["team_levels"] = levels
    rules = registry.get(game)
    default_hand = int(getattr(getattr(rules, "settings", None), "hand_size", 0) or 0)  # 够级 hands differ: none
    hand = st.number_input(tr("setup.hand_sizes", lang), min_value=0, max_value=60, value=default_hand,
                           key=f"{key}_hand_{game}")
    if st.button(tr("setup.start", lang), key=f"{key}_start", disabled=not writable or log is None, type="primary") \
            and log is not None and C.may_write(lang):
        i = log.append(deal_event(game, names, options, int(hand) or None))  # type: ignore[union-attr]
        st.success(tr("setup.started", lang, i=i))
        return True
    return False


def _seat_labels(log: Any, seats: int, lang: str) -> list[str]:
    """The seats as the screen names them (with the players' names of the current deal)."""
    if log is not None:
        result = log.result()
        if result.deals and result.deals[-1].deal.seats == seats:
            from .views import seat_names

            return seat_names(result.deals[-1].deal, lang)
    return [seat_title(s, seats, lang) for s in range(seats)]


def _declare_form(lang: str, writable: bool) -> None:
    log = state.active_log()
    st.markdown(f"#### {tr('setup.declare', lang)}")
    seats = _current_seats(log)
    game = _current_game(log)
    names = _seat_labels(log, seats, lang)
    with st.form("su_declare", enter_to_submit=False):
        c = st.columns([1, 2, 3, 1])
        seat = c[0].selectbox(tr("setup.declare_seat", lang), range(seats), key="su_d_seat", format_func=names.__getitem__)
        what = c[1].selectbox(tr("setup.declare_what", lang), declares_for(game), key="su_d_what",
                              format_func=lambda w: declare_title(w, lang))
        cards_text = c[2].text_input(tr("setup.declare_cards", lang), key="su_d_cards")
        target = c[3].selectbox(tr("setup.declare_target", lang), [None, *range(seats)], key="su_d_target",
                                format_func=lambda x: "—" if x is None else names[x])
        more = st.text_input(tr("setup.declare_more", lang), key="su_d_more", placeholder='{"kind": "dian"}')
        ok = st.form_submit_button(tr("setup.declare_add", lang), disabled=not writable or log is None)
    if ok and log is not None and C.may_write(lang):
        cards, bad = check_cards(cards_text)
        extra, why = _more_keys(more)
        if cards is None:
            st.error(tr("corr.bad_cards", lang, detail=bad))
        elif extra is None:
            st.error(tr("setup.declare_more_bad", lang, detail=why))
        else:
            ev: dict[str, Any] = {"type": "declare", "seat": int(seat), "what": what}
            if cards:
                ev["cards"] = cards
            if target is not None:
                ev["target"] = int(target)
            ev.update({k: v for k, v in extra.items() if k not in ("type", "seat", "what", "cards")})
            ev["source"] = "manual"
            st.success(tr("setup.declared", lang, i=log.append(ev)))
    st.markdown(f"#### {tr('setup.manual', lang)}")
    with st.form("su_play", enter_to_submit=False):
        c = st.columns([1, 4])
        seat = c[0].selectbox(tr("setup.declare_seat", lang), range(seats), key="su_p_seat", format_func=names.__getitem__)
        cards_text = c[1].text_input(tr("setup.manual_cards", lang), key="su_p_cards")
        c2 = st.columns(2)
        play = c2[0].form_submit_button(tr("setup.manual_add", lang), disabled=not writable or log is None)
        pas = c2[1].form_submit_button(tr("setup.pass_add", lang), disabled=not writable or log is None)
    if (play or pas) and log is not None and C.may_write(lang):
        if pas:
            st.success(f"#{log.append({'type': 'pass', 'seat': int(seat), 'source': 'manual'})}")
        else:
            cards, bad = check_cards(cards_text)
            if not cards:
                st.error(tr("corr.bad_cards", lang, detail=bad or "—"))
            else:
                st.success(f"#{log.append({'type': 'play', 'seat': int(seat), 'cards': cards, 'source': 'manual'})}")


def _more_keys(text: str) -> tuple[dict[str, Any] | None, str]:
    """Extra keys of a declaration typed as a JSON object ("" is none)."""
    import json

    if not text.strip():
        return {}, ""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, exc.msg
    return (obj, "") if isinstance(obj, dict) else (None, "not a JSON object")


def _current_game(log: Any) -> str | None:
    if log is None:
        return None
    result = log.result()
    return result.deals[-1].deal.game if result.deals else None


def _current_seats(log: Any) -> int:
    if log is None:
        return 4
    result = log.result()
    if result.deals:
        return result.deals[-1].deal.seats
    cfg, _ = state.config()
    return GAME_SEATS.get(cfg.game or "", 4)


def _current_frame() -> np.ndarray | None:
    cfg, _ = state.config()
    if cfg.live:
        table = state.live_table(cfg.to_env())
        if table.runner is not None:
            frame, _ = table.runner.snapshot()
            return None if frame is None else frame.copy()
        return None
    frames = st.session_state.get("replay_frames")
    if frames is None and st.session_state.get("replay_video"):
        from .sources import SourceError, VideoFrames

        try:
            frames = VideoFrames(st.session_state["replay_video"])
        except SourceError:
            return None
    return None if frames is None else frames.frame_at(0.0)


def _calibration(lang: str, writable: bool) -> None:
    st.markdown(f"#### {tr('setup.calibration', lang)}")
    frame = _current_frame()
    if frame is None:
        st.caption(tr("setup.no_frame", lang))
        return
    try:
        from cardref.vision.calibration import (
            CalibrationError,
            calibrate_manual,
            ensure_layout,
            find_markers,
            parse_corners,
            save_calibration,
        )
    except ImportError as exc:
        st.warning(str(exc))
        return
    shown = frame.copy()
    markers = find_markers(frame)
    for mid, quad in markers.items():
        cv2.polylines(shown, [quad.astype(np.int32).reshape(-1, 1, 2)], True, (0, 255, 255), 3)
        cx, cy = quad.mean(axis=0)
        cv2.putText(shown, str(mid), (int(cx), int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2)
    st.markdown(f"**{tr('setup.markers', lang)}**: {sorted(markers) or '—'}")
    if len(markers) < 4:
        st.caption(tr("setup.no_markers", lang))
    h, w = frame.shape[:2]
    default = " ".join(f"{int(x)},{int(y)}" for x, y in ((0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)))
    if len(markers) == 4:
        default = " ".join(f"{int(q.mean(axis=0)[0])},{int(q.mean(axis=0)[1])}" for _, q in sorted(markers.items()))
    st.markdown(f"**{tr('setup.corner_click', lang)}**")
    clicked = clickpick.click_points(screen.frame_rgb(frame).copy(), "su_click")
    if st.button(tr("setup.corners_reset", lang), key="su_click_reset", icon=":material/restart_alt:"):
        clickpick.reset("su_click")
        st.rerun()
    if len(clicked) == 4:
        text4 = " ".join(f"{int(x)},{int(y)}" for x, y in clicked)
        if st.session_state.get("su_corners_from") != text4:
            st.session_state["su_corners_from"] = text4
            st.session_state["su_corners"] = text4
    if "su_corners" not in st.session_state:
        st.session_state["su_corners"] = default
    text = st.text_input(tr("setup.corners", lang), key="su_corners")
    try:
        corners = parse_corners(text)
        cal = ensure_layout(calibrate_manual(corners, (w, h)), _current_seats(state.active_log()))
    except (CalibrationError, ValueError) as exc:
        st.error(str(exc))
        cal = None
    if cal is not None:
        from .overlay import draw_overlay, zone_polygons

        draw_overlay(shown, zones=zone_polygons(cal))
        cv2.polylines(shown, [np.asarray(corners, dtype=np.int32).reshape(-1, 1, 2)], True, (255, 255, 255), 2)
    st.image(screen.frame_rgb(shown), width="stretch")
    if cal is not None:
        _camera_check(cal, (w, h), lang)
    cfg, _ = state.config()
    target = Path(cfg.calibration or "calibration.json")
    if cal is not None and st.button(tr("setup.corners_save", lang), key="su_cal_save", disabled=not writable) \
            and C.may_write(lang):
        save_calibration(cal, str(target))
        if cfg.live:  # the running table uses it from the next frame on
            table = state.live_table(cfg.to_env())
            if table.runner is not None:
                table.runner.set_calibration(cal)
        st.success(tr("setup.corners_saved", lang, path=target))


def _camera_check(cal: Any, size: tuple[int, int], lang: str) -> None:
    """Whether the cards are as many pixels tall as the detector reads (``vision.detector.scale``)."""
    from cardref.vision.detector.scale import TRAINED_CARD_PX, scale_advice

    check = scale_advice(cal.card_height_px(), size)
    text = tr(f"setup.scale_{check.verdict}", lang, px=round(check.card_px), seen=round(check.seen_px),
              lo=round(TRAINED_CARD_PX[0]), hi=round(TRAINED_CARD_PX[1]))
    (st.caption if check.ok else st.warning)(text)


def render() -> None:
    lang = state.lang()
    cfg, _ = state.config()
    st.subheader(tr("page.setup", lang))
    if not cfg.live:
        st.caption(tr("setup.live_only", lang))
    writable = C.pin_gate(lang, "su")
    _deal_form(lang, writable)
    _declare_form(lang, writable)
    _calibration(lang, writable)
