"""The dashboard's own words in Chinese (default) and English.

The games' own terms (够级, 烧牌, 开点, 扣底 …) stay in Chinese in both languages, as the
rules' fault messages do (see :mod:`cardref.engine.messages`).  The words the match report
shows too (the games' titles, the seats' names, a deal's line and score, the event types)
are the one copy in :mod:`cardref.engine.names`.
"""

from __future__ import annotations

from cardref.engine.names import GAME_TITLES as GAME_TITLES
from cardref.engine.names import LANGS as LANGS
from cardref.engine.names import SEAT_NAMES as SEAT_NAMES
from cardref.engine.names import SHARED_WORDS, seat_name
from cardref.engine.names import TRIBUTE_KINDS as TRIBUTE_KINDS
from cardref.engine.names import game_title as game_title
from cardref.engine.registry import is_gouji

_TEXT: dict[str, tuple[str, str]] = {
    **SHARED_WORDS,  # the columns, event types, deal line and score words the match report shows too
    # navigation and titles
    "app.title": ("cardref 牌桌裁判", "cardref table referee"),
    "page.live": ("实时牌桌", "Live table"),
    "page.replay": ("回放", "Replay"),
    "page.setup": ("设置", "Setup"),
    "page.tournament": ("赛事", "Tournament"),
    "lang.switch": ("English", "中文"),
    "lang.label": ("语言", "Language"),
    # sources and banners
    "source.demo": ("演示牌局（内置录像）", "Demo deal (bundled recording)"),
    "source.demo_gouji": ("演示：够级牌局（仅日志）", "Demo: a 够级 deal (log only)"),
    "source.log": ("日志文件", "Log file"),
    "source.camera": ("摄像头", "Camera"),
    "source.video": ("视频文件", "Video file"),
    "banner.no_camera": ("没有摄像头画面：{detail}。可以在“设置”里手工录入事件，或打开“回放”。",
                         "No camera picture: {detail}. Enter events by hand in Setup, or open Replay."),
    "banner.camera_open": ("打不开摄像头 {what}（没有接上，或被别的程序占用）", "cannot open camera {what} (not plugged in, "
                           "or used by another program)"),
    "banner.video_open": ("打不开视频 {what}（不是视频文件，或编码不支持）", "cannot open video {what} (not a video, or an "
                          "unsupported codec)"),
    "banner.camera_lost": ("摄像头画面中断（{seconds:.0f} 秒无画面），正在重连……已记录的事件都保留着。",
                           "Camera lost ({seconds:.0f} s without a frame), reconnecting… every event so far is kept."),
    "banner.video_ended": ("视频已播完。", "The video has ended."),
    "banner.bad_header": ("开局文件未采用：{detail}", "The header file is not used: {detail}"),
    "banner.no_pipeline": ("识别流水线不可用（{detail}）：只显示画面，事件请手工录入。",
                           "The recognition pipeline is not available ({detail}): showing the picture only; "
                           "enter events by hand."),
    "banner.bad_lines": ("日志中有 {n} 行无法读取（已跳过，其余照常判定）：{first}",
                         "{n} log lines could not be read (skipped, the rest is judged): {first}"),
    "banner.unknown_game": ("未知游戏：{detail}", "Unknown game: {detail}"),
    "banner.unsupported": ("{game} 的规则引擎尚未就绪：只检查牌码、座位和牌数。",
                           "The rules engine for {game} is not ready: only card codes, seats and copies are checked."),
    "banner.engine_error": ("规则引擎出错：{detail}。本局暂时只检查牌码、座位和牌数；事件都已保存。",
                            "The rules engine failed: {detail}. For now only card codes, seats and copies are checked; "
                            "every event is kept."),
    "banner.cannot_open": ("无法打开 {path}：{detail}", "Cannot open {path}: {detail}"),
    "banner.empty_log": ("日志是空的。", "The log is empty."),
    "banner.no_deal": ("还没有开始牌局：请在“设置”里选择游戏并开始一局。",
                       "No deal yet: choose the game in Setup and start a deal."),
    "banner.store_failed": ("赛事记录库打不开（{detail}）：事件只写入日志文件。",
                            "The recorder's store cannot be opened ({detail}): events go to the log file only."),
    "banner.write_failed": ("事件没能写入：{detail}（仍保存在内存中，画面照常）",
                            "An event could not be written: {detail} (it is kept in memory; the table goes on)"),
    "banner.store_missing": ("赛事记录模块尚未安装。", "The tournament recorder is not installed."),
    # referee panel
    "panel.title": ("裁判面板", "Referee panel"),
    "panel.faults": ("违规", "Faults"),
    "panel.pending": ("待确认（识别置信度低）", "Waiting for confirmation (low confidence)"),
    "panel.no_pending": ("没有待确认的事件。", "Nothing waits for confirmation."),
    "panel.events": ("全部事件", "All events"),
    "panel.rows_cut": ("只列出最后 {shown} 个事件（共 {n} 个）。", "Showing the last {shown} of {n} events."),
    "panel.no_faults": ("到目前为止没有违规。", "No faults so far."),
    "panel.proven_later": ("（由第 {j} 个事件证实）", "(proven by event {j})"),
    "panel.corrected": ("已更正 → {what}（#{j}，{who}：{why}）", "corrected → {what} (#{j}, {who}: {why})"),
    "panel.confirmed": ("已确认（#{j}，{who}）", "confirmed (#{j}, {who})"),
    "btn.confirm": ("确认", "Confirm"),
    "btn.correct": ("更正", "Correct"),
    "col.i": ("#", "#"),
    "col.t": ("时间", "time"),
    "col.type": ("事件", "event"),
    "col.conf": ("置信度", "conf"),
    "col.code": ("规则代码", "rule code"),
    "col.code_help": ("规则引擎的违规代码（给开发者看；裁判看“判定”一栏的句子）",
                      "The rules engine's fault code (for developers; the referee reads the verdict's sentence)"),
    "col.n_cards": ("{n} 张", "{n} cards"),
    "verdict.ok": ("✓", "✓"),
    # corrections
    "corr.title": ("更正事件", "Correct an event"),
    "corr.pick": ("要更正的事件", "Event to correct"),
    "corr.cards": ("正确的牌（空格分隔，如 10H QS BJ）", "Right cards (space separated, e.g. 10H QS BJ)"),
    "corr.seat": ("正确的座位", "Right seat"),
    "corr.who": ("更正人", "Corrected by"),
    "corr.why": ("原因", "Reason"),
    "corr.submit": ("追加更正", "Append correction"),
    "corr.done": ("已追加更正 #{j}：从第 {ref} 个事件起重新判定。", "Correction #{j} appended: re-judged from event {ref}."),
    "corr.bad_cards": ("牌码无效：{detail}", "Bad card code: {detail}"),
    "corr.nothing": ("请填写牌或座位。", "Give the cards or the seat."),
    "corr.none": ("还没有可以更正的事件。", "No event to correct yet."),
    "corr.hint": ("点选表格中的一行即可更正该事件；更正会追加一条记录，原记录不会被删除。",
                  "Click a row of the table to correct that event; a correction is appended, nothing is erased."),
    "pin.label": ("裁判长密码", "Director PIN"),
    "pin.locked": ("更正已锁定：请输入裁判长密码。", "Corrections are locked: enter the director PIN."),
    "pin.wrong": ("密码不对。", "Wrong PIN."),
    "pin.unlock": ("解锁", "Unlock"),
    "pin.lock": ("锁定更正", "Lock corrections"),
    # table and trick
    "table.title": ("牌桌（俯视）", "The table from above"),
    "table.trick": ("当前一轮", "Current trick"),
    "table.no_trick": ("本轮还没有出牌。", "Nothing played in this round yet."),
    "table.camera": ("摄像头画面", "Camera picture"),
    "live.opening": ("正在打开摄像头和识别模型……", "Opening the camera and the recognition model…"),
    "table.pipeline": ("识别：{name}", "recognition: {name}"),
    "table.fps": ("{fps:.1f} 帧/秒 · 第 {frames} 帧", "{fps:.1f} fps · frame {frames}"),
    "seat.name": ("{s}号位", "Seat {s}"),
    "table.deal_over": ("本局已结束", "The deal is over"),
    "table.legend": ("图例：黄框 = 轮到出牌；黄点 = 本轮首出；名字下的数字 = 本局已出的牌数；红框 = 违规的出牌。",
                     "Key: yellow frame = to play; yellow dot = led this trick; number under a name = cards played "
                     "this deal; red frame = a faulted play."),
    "table.legend_gouji": ("名字后的“· 1”等 = 出完名次（1 = 头科）。", "“· 1” after a name = finishing place (1 = 头科)."),
    # scoreboard
    "score.title": ("记分牌", "Scoreboard"),
    "score.bottom": ("底牌", "Bottom"),
    "score.levels": ("级别", "Levels"),
    "score.team": ("{seats} 队", "team {seats}"),
    "score.tricks": ("出牌轮次", "Trick history"),
    "score.trick_n": ("第 {n} 轮", "Trick {n}"),
    "score.winner": ("赢家", "winner"),
    "score.points": ("分", "points"),
    "score.chart": ("每轮得分", "Points over tricks"),
    "score.chart_cum": ("累计抓分", "attacker points so far"),
    "score.chart_trick": ("本轮分数", "points in the trick"),
    "score.played": ("各家已出牌数", "Cards played per seat"),
    "score.played_n": ("已出", "played"),
    "score.remaining_n": ("剩余", "left"),
    "score.gouji": ("够级进行中", "够级 in progress"),
    "score.may_answer": ("可以应答", "may answer"),
    "score.burning": ("烧牌进行中", "烧牌 in progress"),
    "score.trib_from": ("进贡方", "from"),
    "score.trib_to": ("收贡方", "to"),
    "score.trib_count": ("张数", "cards"),
    "score.trib_kind": ("贡的种类", "kind"),
    "score.history": ("本场牌局记录", "Match history"),
    "score.deal_col": ("局", "deal"),
    "score.game_col": ("游戏", "game"),
    "score.outcome_col": ("结果", "result"),
    "score.deal_n": ("第 {n} 局", "Deal {n}"),
    "score.faults_n": ("违规 {n} 次", "{n} faults"),
    "score.none": ("—", "—"),
    "score.unjudged": ("未判定", "not judged"),
    "score.gouji_owner": ("只许对门应答", "only the 对门 may answer"),
    "score.shangtian": ("上天（{side}）", "上天 ({side})"),
    "score.shangtian_attackers": ("抓分方上天", "上天 for the attackers"),
    "score.shangtian_dealer": ("庄家方上天", "上天 for the dealer's side"),
    "score.to_play": ("轮到 {name}", "{name} to play"),
    # replay
    "replay.open": ("打开日志", "Open a log"),
    "replay.upload": ("上传日志（.jsonl）", "Upload a log (.jsonl)"),
    "replay.upload_help": ("点下面的按钮选一个日志文件，或把文件拖到框里（按钮上的英文是界面框架自带的，不能改）。",
                           "Press the button below to pick a log file, or drag the file into the box."),
    "replay.path": ("或输入日志路径", "or type a log path"),
    "replay.store": ("或从赛事记录库打开一桌", "or open a table of the recorder's store"),
    "replay.video": ("对应视频（可选）", "Its video (optional)"),
    "replay.timeline": ("时间轴（已发生的事件数）", "Timeline (events so far)"),
    "replay.first": ("开头", "Start"),
    "replay.prev": ("上一手", "Back"),
    "replay.next": ("下一手", "Next"),
    "replay.last": ("结尾", "End"),
    "replay.play": ("自动播放", "Play"),
    "replay.pause": ("暂停", "Pause"),
    "replay.speed": ("播放速度（秒/事件）", "Speed (seconds per event)"),
    "replay.position": ("第 {k} / {n} 个事件", "event {k} of {n}"),
    "replay.as_were": ("判定按当时已知的情况显示；后来才证实的违规在证实时出现。",
                       "Verdicts are shown as they were known then; a fault proven later appears when it is proven."),
    "replay.at_start": ("回放在开头：点“自动播放”或“下一手”。", "The replay is at its start: press Play or Next play."),
    "replay.save": ("下载（含更正的）日志", "Download the log (with corrections)"),
    "replay.loaded": ("已打开：{name}", "Opened: {name}"),
    # setup
    "setup.game": ("游戏和玩法", "Game and variant"),
    "setup.names": ("各座位玩家", "Players per seat"),
    "setup.options": ("本局设置", "Deal options"),
    "setup.level": ("打几（级别）", "Level"),
    "setup.trump": ("主花色", "Trump suit"),
    "setup.no_trump": ("无主", "no trump (无主)"),
    "setup.suit_S": ("♠ 黑桃", "♠ spades"),
    "setup.suit_H": ("♥ 红桃", "♥ hearts"),
    "setup.suit_D": ("♦ 方块", "♦ diamonds"),
    "setup.suit_C": ("♣ 梅花", "♣ clubs"),
    "setup.manual_cards": ("出的牌（空格分隔，如 10H QS BJ）", "Cards played (space separated, e.g. 10H QS BJ)"),
    "setup.from_previous": ("已按上一局的结果预选庄家 / 级别 / 首出，请核对。",
                            "Dealer, level and leader are preselected from the previous deal: check them."),
    "setup.need_deal": ("开始出牌前请先给出本局设置（{what}）：摄像头看不到这些。",
                        "Before the first play, give this deal's options ({what}): the camera cannot see them."),
    "setup.need_shengji": ("打几、主花色、庄家", "level, trump, dealer"),
    "setup.need_gouji": ("首出座位", "the leader"),
    "setup.dealer": ("庄家座位", "Dealer seat"),
    "setup.leader": ("首出座位", "Leader seat"),
    "setup.hand_sizes": ("每家手牌张数（可选）", "Cards per hand (optional)"),
    "setup.start": ("开始新的一局", "Start a new deal"),
    "setup.started": ("已开始新的一局：事件 #{i}", "New deal started: event #{i}"),
    "setup.declare": ("宣告事件（摄像头看不到的）", "Declarations (what the camera cannot see)"),
    "setup.declare_seat": ("座位", "Seat"),
    "setup.declare_what": ("宣告", "What"),
    "setup.declare_cards": ("相关的牌（可选）", "Cards shown (optional)"),
    "setup.declare_target": ("对象座位", "Target seat"),
    "setup.declare_more": ("其他字段（JSON，可选）", "More keys (JSON, optional)"),
    "setup.declare_more_bad": ("其他字段不是 JSON 对象：{detail}", "More keys are not a JSON object: {detail}"),
    "setup.declare_add": ("记录宣告", "Record declaration"),
    "setup.declared": ("已记录宣告 #{i}", "Declaration recorded: #{i}"),
    "setup.manual": ("手工录入出牌", "Enter a play by hand"),
    "setup.manual_add": ("记录出牌", "Record play"),
    "setup.pass_add": ("记录不要", "Record pass"),
    "setup.calibration": ("标定", "Calibration"),
    "setup.markers": ("找到的标记", "Markers found"),
    "setup.no_markers": ("画面中没有找到标记：请手工给出桌面的四个角（像素坐标）。",
                         "No markers found in the picture: give the table's four corners (pixels) by hand."),
    "setup.corners": ("桌面四角（左上、右上、右下、左下）", "Table corners (top-left, top-right, bottom-right, bottom-left)"),
    "setup.corner_click": ("在图上点击四个角（依次：左上、右上、右下、左下）",
                           "Click the four corners on the picture (top-left, top-right, bottom-right, bottom-left)"),
    "setup.corners_save": ("保存标定", "Save calibration"),
    "setup.corners_saved": ("标定已保存到 {path}", "Calibration saved to {path}"),
    "setup.corners_reset": ("重新点选", "Click again"),
    "setup.no_frame": ("没有画面可以标定。", "No picture to calibrate on."),
    "setup.scale_ok": ("画面中一张牌约 {px} 像素高（检测器按 {lo}–{hi} 像素训练）：合适。",
                       "A card is about {px} px tall in the picture (the detector is trained on {lo}-{hi} px): good."),
    "setup.scale_small": ("画面中一张牌只有约 {seen} 像素高（检测器按 {lo}–{hi} 像素训练）：请把摄像头放低、"
                          "拉近，或用更高的分辨率。",
                          "A card is only about {seen} px tall as the detector sees it (it is trained on {lo}-{hi} "
                          "px): lower the camera, zoom in or use a higher resolution."),
    "setup.scale_large": ("画面中一张牌约 {seen} 像素高，超出检测器的训练范围（{lo}–{hi} 像素）：请把摄像头升高或拉远。",
                          "A card is about {seen} px tall as the detector sees it, more than it is trained on "
                          "({lo}-{hi} px): raise the camera or zoom out."),
    "setup.live_only": ("当前是回放：新的事件会追加到本次会话的日志副本中。",
                        "This is a replay: new events go to this session's copy of the log."),
    # the tournament page (cardref.ui.tournament_page)
    "tp.none": ("还没有赛事。", "No tournament yet."),
    "tp.new": ("新建赛事", "New tournament"),
    "tp.name": ("名称", "Name"),
    "tp.game": ("游戏", "Game"),
    "tp.family.gouji": ("够级", "够级 (Gouji)"),
    "tp.family.shengji": ("升级（刮风 / 炒地皮）", "升级 (刮风 / 炒地皮)"),
    "tp.new_pin": ("裁判长密码（至少 4 位）", "Director PIN (at least 4 characters)"),
    "tp.create": ("新建", "Create"),
    "tp.created": ("已新建赛事“{name}”。", "Tournament “{name}” created."),
    "tp.not_created": ("没有新建：{why}", "Not created: {why}"),
    "tp.pin_short": ("裁判长密码至少要 4 位。", "the director PIN needs at least 4 characters."),
    "tp.pair": ("编排下一轮（在本赛事的各桌）", "Pair the next round at the tournament's tables"),
    "tp.pairing": ("编排方式", "Pairing"),
    "tp.swiss": ("瑞士制（按名次，不重复对阵）", "Swiss (by standings, no rematches)"),
    "tp.round_robin": ("单循环", "Round robin"),
    "tp.pair_submit": ("编排本轮", "Pair round"),
    "tp.paired": ("已编排：{n} 场（{matches}）。", "Round paired: {n} match(es) ({matches})."),
    "tp.not_paired": ("没有编排：{why}", "Not paired: {why}"),
    "tp.setup": ("队伍、轮次、牌桌、对阵（裁判长）", "Teams, rounds, tables, matches (director)"),
    "tp.add_what": ("添加", "Add"),
    "tp.what.team": ("队伍", "team"),
    "tp.what.round": ("轮次", "round"),
    "tp.what.table": ("牌桌", "table"),
    "tp.what.match": ("对阵", "match"),
    "tp.add_name": ("队名 / 牌桌编号 / 轮次名称", "Team name / table id / round name"),
    "tp.add_players": ("队员（添加队伍时，用逗号分隔）", "Players (team: comma separated)"),
    "tp.add_round": ("轮次（添加对阵时）", "Round (match)"),
    "tp.add_table": ("牌桌（添加对阵时）", "Table (match)"),
    "tp.team_a": ("甲队，坐双号座位（添加对阵时）", "Team A, even seats (match)"),
    "tp.team_b": ("乙队，坐单号座位（添加对阵时）", "Team B, odd seats (match)"),
    "tp.add": ("添加", "Add"),
    "tp.added": ("已添加{what}。", "Added {what}."),
    "tp.not_added": ("没有添加：{why}", "Not added: {why}"),
    "tp.nothing_changed": ("没有改动：{why}", "Nothing changed: {why}"),
    "tp.match_label": ("第 {match} 场 · 第 {round} 轮 · {table} 桌：{a} {score} {b}",
                       "#{match} round {round} table {table}: {a} {score} {b}"),
    "tp.confirm": ("确认成绩（确认后锁定；之后的更正需要密码）",
                   "Confirm a result (locks it; corrections then need the PIN)"),
    "tp.director": ("裁判长", "Director"),
    "tp.confirm_submit": ("确认成绩", "Confirm result"),
    "tp.none_waiting": ("没有等待确认的成绩。", "No result is waiting for confirmation."),
    "tp.confirmed": ("第 {match} 场成绩已由 {who} 确认。", "Match {match} confirmed by {who}."),
    "tp.not_confirmed": ("没有确认：{why}", "Not confirmed: {why}"),
    "tp.correct_hint": ("赛事对阵中的任何事件，更正都需要裁判长密码。",
                        "Any event of a tournament match needs the director PIN to be corrected."),
    "tp.seq": ("事件编号（seq）", "Event number (seq)"),
    "tp.fix_cards": ("改成这些牌（如 10H QS BJ；空着表示不改）", "Right cards (e.g. 10H QS BJ; empty to keep)"),
    "tp.fix_seat": ("改成这个座位（“—”表示不改）", "Right seat (— to keep)"),
    "tp.fix_submit": ("记录更正", "Record correction"),
    "tp.fixed": ("更正已记录为第 {seq} 个事件。", "Correction recorded as event {seq}."),
    "tp.not_fixed": ("没有记录：{why}", "Not recorded: {why}"),
    "tp.too_many": ("本浏览器会话密码错误次数太多：请 10 分钟后再试。",
                    "Too many wrong PINs from this browser session: try again in 10 minutes."),
    "tp.standings": ("名次", "Standings"),
    "tp.no_scored": ("还没有计分的对阵。", "No scored match yet."),
    "tp.provisional": ("暂定：有些成绩还没有确认。", "Provisional: some results are not confirmed yet."),
    "tp.rounds": ("轮次和牌桌", "Rounds and tables"),
    "tp.no_match": ("还没有对阵。", "No match yet."),
    "tp.no_team": ("还没有队伍。", "No team yet."),
    "tp.director_title": ("裁判长", "Director"),
    "tp.audit": ("操作记录", "Audit log"),
    "tp.nothing_yet": ("还没有记录。", "Nothing yet."),
    "tp.no_correction": ("还没有更正。", "No correction yet."),
    # the recorder's refusals by their stable code (TournamentError.code, PinError.code)
    "tp.err.pin_short": ("裁判长密码至少要 4 位。", "the director PIN needs at least 4 characters."),
    "tp.err.pin_wrong": ("密码不对。", "Wrong PIN."),
    "tp.err.pin_locked": ("本浏览器会话密码错误次数太多：请 {minutes} 分钟后再试。",
                          "Too many wrong PINs from this browser session: try again in {minutes} minutes."),
    "tp.err.bad_family": ("不认识的游戏 {family}（只能是够级或升级）。", "unknown game {family} (够级 or 升级 only)."),
    "tp.err.no_name": ("赛事要有名称。", "a tournament needs a name."),
    "tp.err.no_team_name": ("队伍要有名称。", "a team needs a name."),
    "tp.err.bad_teams": ("对阵要选本赛事的两支不同队伍。", "a match needs two different teams of this tournament."),
    "tp.err.bad_table": ("牌桌 {table} 不是本赛事的牌桌（请先添加）。",
                         "table {table} is not a table of this tournament (add it first)."),
    "tp.err.not_in_round": ("第 {match} 场不属于任何赛事轮次。", "match {match} is not part of a tournament round."),
    "tp.err.no_director": ("请写明由谁确认结果。", "say who confirms the result."),
    "tp.err.already_confirmed": ("第 {match} 场已由 {who} 于 {at} 确认。",
                                 "match {match} was already confirmed by {who} at {at}."),
    "tp.err.no_event": ("牌桌 {table} 没有第 {seq} 号事件可更正。", "table {table} has no event {seq} to correct."),
    "tp.err.too_few_teams": ("编排至少要两支队伍。", "pairing needs at least two teams."),
    "tp.err.unconfirmed": ("请先确认第 {matches} 场的结果，再编排下一轮。",
                           "confirm the results of matches {matches} before pairing the next round."),
    "tp.err.swiss_exhausted": ("瑞士制已排完：每种编排都会重复已赛过的对阵。可改用单循环。",
                               "every possible pairing repeats a match: the Swiss rounds are exhausted."),
    "tp.err.bad_method": ("不认识的编排方式 {method}（瑞士制或单循环）。",
                          "unknown pairing method {method} (Swiss or round robin)."),
    "tp.err.too_few_tables": ("{need} 场对阵需要 {need} 张牌桌；本赛事只有 {have} 张。",
                              "{need} matches need {need} tables; the tournament has {have}."),
    # the recorder's own refusals by their stable code (recorder.<what>: NotFound, LockedError)
    "rec.err.no_match": ("没有第 {match} 场比赛。", "there is no match {match}."),
    "rec.err.no_deal": ("没有编号为 {deal} 的牌局。", "there is no deal {deal}."),
    "rec.err.no_table": ("没有牌桌 {table}。", "there is no table {table}."),
    "rec.err.no_round": ("没有编号为 {round} 的轮次。", "there is no round {round}."),
    "rec.err.no_team": ("本赛事没有队伍 {team}。", "there is no team {team} in this tournament."),
    "rec.err.no_tournament": ("没有赛事 {tournament}。", "there is no tournament {tournament}."),
    "rec.err.locked": ("第 {match} 场的结果已由 {who} 确认：更正牌桌 {table} 的第 {event} 号事件需要裁判长密码。",
                       "match {match} was confirmed by {who}: correcting event {event} of table {table} needs "
                       "the director's PIN."),
    "rec.err.locked_no_tournament": ("第 {match} 场的结果已确认，且不属于任何赛事：不能再更正。",
                                     "match {match} is confirmed and belongs to no tournament: it cannot be "
                                     "corrected."),
    "tp.status.confirmed": ("已确认", "confirmed"),
    "tp.status.finished": ("已结束", "finished"),
    "tp.status.playing": ("进行中", "playing"),
    "tp.outcome.ok": ("完成", "done"),
    "tp.action.confirm": ("确认成绩", "confirm"),
    "tp.action.correct": ("更正", "correct"),
    "tp.action.pair_round": ("编排轮次", "pair round"),
    "tp.action.add_team": ("添加队伍", "add team"),
    "tp.action.add_round": ("添加轮次", "add round"),
    "tp.action.add_table": ("添加牌桌", "add table"),
    "tp.action.add_match": ("添加对阵", "add match"),
    "tp.action.create_tournament": ("新建赛事", "create tournament"),
    "tp.action.change_pin": ("更改密码", "change PIN"),
    "tp.col.place": ("名次", "place"),
    "tp.col.team": ("队伍", "team"),
    "tp.col.played": ("已赛", "played"),
    "tp.col.won": ("胜", "won"),
    "tp.col.drawn": ("平", "drawn"),
    "tp.col.lost": ("负", "lost"),
    "tp.col.match_points": ("积分", "match points"),
    "tp.col.levels_gained": ("升级数", "levels gained"),
    "tp.col.levels_conceded": ("失级数", "levels conceded"),
    "tp.col.diff": ("净胜", "difference"),
    "tp.col.points_for": ("得分", "points for"),
    "tp.col.points_against": ("失分", "points against"),
    "tp.col.place_points": ("名次分", "place points"),
    "tp.col.tributes_net": ("进贡净值", "tributes (net)"),
    "tp.col.confirmed": ("已确认", "confirmed"),
    "tp.col.match": ("对阵", "match"),
    "tp.col.round": ("轮次", "round"),
    "tp.col.table": ("牌桌", "table"),
    "tp.col.team_a": ("甲队", "team A"),
    "tp.col.team_b": ("乙队", "team B"),
    "tp.col.score": ("比分", "score"),
    "tp.col.deals": ("局数", "deals"),
    "tp.col.unscored_deals": ("未计分局数", "unscored deals"),
    "tp.col.levels": ("级别", "levels"),
    "tp.col.status": ("状态", "status"),
    "tp.col.confirmed_by": ("确认人", "confirmed by"),
    "tp.col.players": ("队员", "players"),
    "tp.col.at": ("时间", "time"),
    "tp.col.actor": ("操作人", "by"),
    "tp.col.action": ("操作", "action"),
    "tp.col.outcome": ("结果", "outcome"),
    "tp.col.table_id": ("牌桌", "table"),
    "tp.col.match_id": ("对阵", "match"),
    "tp.col.seq": ("事件编号", "event"),
    "tp.col.ref": ("更正的事件", "corrects event"),
    "tp.col.who": ("更正人", "by"),
    "tp.col.why": ("原因", "reason"),
    "tp.col.recorded_at": ("记录时间", "recorded at"),
    "pin.wait": ("请 {seconds:.0f} 秒后再试（只限本浏览器会话）。", "Try again in {seconds:.0f} s (this browser session only)."),
}

#: Names of declarations the referee can enter, by their event-log ``what`` (the engines'
#: own names: ``cardref.engine.gouji.declares`` and ``cardref.engine.shengji.declares``).
DECLARES: dict[str, tuple[str, str]] = {
    # 升级 family
    "liangzhu": ("亮主", "亮主 (show trump)"),
    "chongzhu": ("冲主", "冲主"),
    "xupai": ("续牌", "续牌"),
    "zhanpai": ("粘牌", "粘牌"),
    "zhan_return": ("粘牌交还", "粘牌 hand-back"),
    "exchange": ("换底", "换底"),
    "bury": ("扣底", "扣底 (bury)"),
    "kou_di": ("扣底", "扣底 (bury)"),
    "menpai": ("闷牌", "闷牌"),
    "fanzhu": ("反主", "反主 (counter trump)"),
    "chaodi": ("抄底", "抄底"),
    "huitouwang": ("回头望", "回头望"),
    # 够级
    "buy3": ("买3", "买3 (buy a 3)"),
    "buy4": ("买4", "买4 (buy a 4)"),
    "xuandian": ("宣点", "宣点"),
    "kaidian": ("开点", "开点"),
    "kangong": ("扛贡", "扛贡"),
    "tribute": ("进贡", "进贡 (tribute)"),
    "revolution": ("革命", "革命 (revolution)"),
    "chongdian": ("冲点", "冲点"),
    "yaotou": ("要头", "要头"),
    "youtou": ("有头", "有头"),
    "wutou": ("无头", "无头"),
    "rangpai": ("让牌", "让牌"),
    "burn": ("烧牌", "烧牌 (burn)"),
    "rendian": ("认点", "认点"),
    "throw4": ("扔4", "扔4"),
    "out": ("走科（出完）", "out (走科)"),
}

SHENGJI_DECLARES = ("liangzhu", "chongzhu", "xupai", "zhanpai", "zhan_return", "exchange", "bury", "menpai",
                    "fanzhu", "chaodi", "huitouwang", "out")
GOUJI_DECLARES = ("xuandian", "kaidian", "buy3", "buy4", "kangong", "tribute", "revolution", "chongdian", "yaotou",
                  "youtou", "wutou", "rangpai", "burn", "rendian", "throw4", "out")


def declares_for(game: str | None) -> list[str]:
    """The declarations of ``game`` (its rules' own list when the engine gives one)."""
    try:
        from cardref.engine import registry

        rules = registry.get(game or "")
        known = getattr(getattr(rules, "settings", None), "declares", None)
        if known:
            ordered = list(dict.fromkeys((*GOUJI_DECLARES, *SHENGJI_DECLARES)))
            return [w for w in ordered if w in known] + [w for w in sorted(known) if w not in ordered]
    except Exception:
        pass
    if is_gouji(game):
        return list(GOUJI_DECLARES)
    if game:
        return list(SHENGJI_DECLARES)
    return list(DECLARES)


def seat_title(seat: int, seats: int = 4, lang: str = "zh") -> str:
    """Seat ``seat`` (0-based, as in the event log) of a ``seats``-seat table, in words
    (:data:`cardref.engine.names.SEAT_NAMES`)."""
    return seat_name(seat, seats, lang)


def tr(key: str, lang: str = "zh", **facts: object) -> str:
    """The sentence for ``key`` in ``lang``, formatted with ``facts``; an unknown key is shown as is."""
    pair = _TEXT.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    if not facts:
        return text
    try:
        return text.format(**facts)
    except (KeyError, ValueError, IndexError):
        return text


#: The catalogue's keys of a refusal, by the area of its code ("tournament.<what>" -> "tp.err.<what>").
REFUSAL_KEYS = {"tournament": "tp.err.", "recorder": "rec.err."}


def refusal(exc: BaseException, lang: str = "zh") -> str:
    """A refusal of the recorder in the catalogue's words: an exception with a stable
    ``code`` and ``facts`` is shown as ``tp.err.<what>`` ("tournament.swiss_exhausted") or
    ``rec.err.<what>`` ("recorder.no_match"); one whose code the catalogue does not know,
    or that has none, as its own message."""
    code = getattr(exc, "code", None)
    if isinstance(code, str) and "." in code:
        area, what = code.split(".", 1)
        prefix = REFUSAL_KEYS.get(area)
        if prefix is not None and prefix + what in _TEXT:
            return tr(prefix + what, lang, **dict(getattr(exc, "facts", None) or {}))
    return str(exc)


def declare_title(what: str, lang: str = "zh") -> str:
    pair = DECLARES.get(what)
    return what if pair is None else pair[1 if lang == "en" else 0]


def keys() -> set[str]:
    return set(_TEXT)
