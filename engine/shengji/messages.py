"""Chinese and English sentences for the 升级 family's fault codes.

Game terms (毙, 甩牌, 扣底, 上天入地, 雷牌, 闪牌 …) stay in Chinese in English too.
"""

from __future__ import annotations

from ..messages import register

CATALOGUE: dict[str, dict[str, str]] = {
    "shengji.bad_option": {"zh": "本局设置 {key} 的值无效：{value}（{why}）",
                           "en": "deal option {key} is invalid: {value} ({why})"},
    "shengji.out_of_turn": {"zh": "轮到座位 {expected} 出牌，座位 {seat} 却出了牌",
                            "en": "seat {expected} is to play but seat {seat} played"},
    "shengji.pass_not_allowed": {"zh": "升级类游戏不能过牌：座位 {seat} 必须跟牌",
                                 "en": "no passing in this game: seat {seat} must play"},
    "shengji.wrong_count": {"zh": "首家出了 {expected} 张，座位 {seat} 跟了 {got} 张",
                            "en": "the lead has {expected} cards but seat {seat} played {got}"},
    "shengji.too_many_cards": {"zh": "座位 {seat} 只剩 {left} 张牌，却出了 {got} 张",
                               "en": "seat {seat} has {left} cards left but played {got}"},
    "shengji.play_after_end": {"zh": "本局牌已打完，座位 {seat} 不能再出牌",
                               "en": "the deal is over: seat {seat} cannot play"},
    "shengji.lead_mixed": {"zh": "首家出牌必须是同一门花色（或全是主牌）：{cards}",
                           "en": "a lead must be of one suit (or all trumps): {cards}"},
    "shengji.throw_not_allowed": {"zh": "本规则不允许甩牌：{cards}", "en": "甩牌 is not allowed here: {cards}"},
    "shengji.failed_throw": {"zh": "甩错牌：座位 {beaten_by} 有更大的 {unit}；必须出 {forced}，罚 {penalty} 分",
                             "en": "failed 甩牌: seat {beaten_by} holds a bigger {unit}; {forced} must be played, "
                                   "penalty {penalty} points"},
    "shengji.must_follow_suit": {"zh": "座位 {seat} 手里还有{group}（如 {held}），必须跟出",
                                 "en": "seat {seat} still held {group} cards ({held}) and had to follow"},
    "shengji.must_follow_pairs": {"zh": "座位 {seat} 有对必须出对：应出 {need} 对，只出了 {got} 对",
                                  "en": "seat {seat} had pairs: {need} pair(s) were due, {got} played"},
    "shengji.must_follow_tractor": {"zh": "座位 {seat} 有连对（风牌）必须跟连对（{length} 对）",
                                    "en": "seat {seat} held a tractor (风牌) of {length} pairs and had to play it"},
    "shengji.not_largest_first": {"zh": "座位 {seat} 须从大到小出牌：留着 {kept} 却出了 {played}",
                                  "en": "seat {seat} must play its largest cards (从大到小): kept {kept}, "
                                        "played {played}"},
    "guafeng.must_play_lei": {"zh": "座位 {seat} 有雷出雷", "en": "seat {seat} held a 雷牌 and had to play it (有雷出雷)"},
    "guafeng.must_play_shan": {"zh": "座位 {seat} 有 {count} 张的闪牌必须出",
                               "en": "seat {seat} held a {count}-card 闪牌 and had to play it"},
    "chaodipi.must_play_wushik": {"zh": "座位 {seat} 有主花色 5、10、K 必须出",
                                  "en": "seat {seat} held the trump 5-10-K and had to play it"},
    "guafeng.jokers_not_buried": {"zh": "扣底的座位 {seat} 有王必须全部扣底：{cards}",
                                  "en": "seat {seat} buried the bottom and had to bury every joker: {cards}"},
    "guafeng.declared_cards_buried": {"zh": "座位 {seat} 亮过的牌不能埋：{cards} 不在手里",
                                      "en": "seat {seat} may not bury the cards it showed: {cards} are not in its hand"},
    "guafeng.wrong_burier": {"zh": "应由座位 {expected} 扣底，座位 {seat} 扣了底",
                             "en": "seat {expected} buries the bottom, not seat {seat}"},
    "shengji.bottom_wrong_size": {"zh": "底牌应为 {expected} 张，实际 {got} 张",
                                  "en": "the bottom holds {expected} cards, {got} shown"},
    "shengji.bottom_twice": {"zh": "底牌已经亮过一次", "en": "the bottom was already shown"},
    "shengji.hand_after_play": {"zh": "座位 {seat} 的手牌与已出的牌不符：{cards}",
                                "en": "seat {seat}'s hand does not hold cards it already played: {cards}"},
    "shengji.hand_twice": {"zh": "座位 {seat} 的手牌已给出", "en": "seat {seat}'s hand was already given"},
    "shengji.wrong_next_dealer": {"zh": "上一局之后应由座位 {expected} 坐庄，日志写了 {got}",
                                  "en": "after the previous deal seat {expected} deals, the log says {got}"},
    "shengji.menpai_first_deal": {"zh": "第一局无人亮主须重新发牌，不能闷牌（000:217）",
                                  "en": "no 闷牌 in the first deal: when nobody declares, the cards are dealt again (000:217)"},
    "shengji.wrong_next_level": {"zh": "庄家方应打 {expected}，日志写了 {got}",
                                 "en": "the dealer side plays {expected}, the log says {got}"},
    "chaodipi.flag_deal_expected": {"zh": "过 A 之后应扛旗打无主（flag: true, trump: null）",
                                    "en": "after passing A the next deal is 扛旗 (flag: true, trump: null)"},
    "chaodipi.fandi_trump": {"zh": "翻底：底牌中第一张级牌是 {card}，主应为其花色（王则无主），本局写的是 {trump}",
                             "en": "翻底: the bottom's first level card is {card}, so the trump is its suit (a joker: "
                                   "无主), not {trump}"},
    "chaodipi.fandi_no_chaodi": {"zh": "翻底定主的一副牌不能再亮主、反主或炒底（{what}）",
                                 "en": "a deal whose trump was turned up from the bottom (翻底) cannot be declared or "
                                       "炒底 ({what})"},
    "chaodipi.flag_no_bottom": {"zh": "扛旗不留底牌", "en": "扛旗 keeps no bottom"},
    "shengji.unknown_declare": {"zh": "未知的声明 {what}（可用：{known}）",
                                "en": "unknown declare {what!r} (known: {known})"},
    "shengji.declare_after_play": {"zh": "出牌开始后不能再 {what}", "en": "{what} is too late once play has begun"},
    "shengji.declare_bad_cards": {"zh": "{what} 的牌不合规：{cards}（{why}）",
                                  "en": "the cards shown for {what} are not valid: {cards} ({why})"},
    "guafeng.chongzhu_not_allowed": {"zh": "冲主只能冲一张王的亮主（{why}）",
                                     "en": "冲主 only overturns a 亮主 made with one joker ({why})"},
    "guafeng.declare_after_kou_di": {"zh": "座位 {seat} 的 {what} 太晚：冲主、续牌只在发牌过程中，已经扣底（000:125、135、159）",
                                     "en": "seat {seat}'s {what} comes too late: 冲主 and 续牌 happen while cards are dealt, "
                                           "and the bottom is already buried (000:125, 135, 159)"},
    "guafeng.xupai_not_allowed": {"zh": "续牌不合规：{why}", "en": "续牌 is not allowed: {why}"},
    "guafeng.zhanpai_too_weak": {"zh": "粘牌需要多一对以上、王不少于亮主者（亮主：{jokers} 王 {pairs} 对）",
                                 "en": "粘牌 needs one more pair and at least as many jokers as the 亮主 "
                                       "({jokers} jokers, {pairs} pairs)"},
    "guafeng.zhan_return_wrong": {"zh": "粘牌还牌应为 {expected} 张（其中至少 {trumps} 张主），实际 {got}",
                                  "en": "粘牌 hand-back is {expected} cards (at least {trumps} trumps), got {got}"},
    "guafeng.exchange_not_allowed": {"zh": "换底只能用同点数的副牌换底牌中的普通主牌：{why}",
                                     "en": "only plain trumps of the bottom may be swapped for side cards of the "
                                           "same rank: {why}"},
    "chaodipi.fanzhu_too_low": {"zh": "反主 {got} 不高于当前的 {current}", "en": "反主 {got} does not beat {current}"},
    "chaodipi.no_huitouwang": {"zh": "本房间没有回头望", "en": "this room has no 回头望"},
    "shengji.first_dealer_not_declarer": {"zh": "第一局的庄家由亮主（翻主）方担任：座位 {seat} 亮主，庄家却是 {dealer}",
                                          "en": "the first deal's dealer side is the side that declared: seat {seat} "
                                                "declared but seat {dealer} deals"},
    "shengji.trump_contradicts_declare": {"zh": "本局主 {trump} 与声明的主 {declared} 不符",
                                          "en": "the deal's trump {trump} contradicts the declared {declared}"},
}

register(CATALOGUE)
