"""Every word the panel shows, English and Japanese side by side, in one list.

The screens, pages and menus name a word by its key and never spell one out, so a word is
translated once, here, and a test (``tests/hardware/test_panel_words.py``) checks that every
key the panel uses is in this list in both languages and that no code writes a word inline.
Names, game titles and numbers are the only text the panel shows as it gets it.

A word is a template for :meth:`str.format`: ``{name}``, ``{count}``... are filled with values
(a name like ``"{s0}"`` stays as typed: values are not formatted again). A counted word has
two English forms, one and many (see :func:`counted`); Japanese has one.

Keys with a dot translate a game's values rather than the panel's own words: ``step.<step>``
(a game's ``step``/``phase``), ``choice.<value>`` (an option's value in the start menu),
``colour.<letter>`` (SWAP 5's colours); ``action.<type>`` labels a tracker's action
(``hardware/actions.py``) and ``field.<value>`` its id-valued fields.
"""

from __future__ import annotations

WORDS = {
    "product": {"en": "Tabletop Companion", "ja": "テーブルトップ・コンパニオン"},
    # ---------------------------------------------------------------- status screens (screens.py)
    "code": {"en": "Code", "ja": "コード"},
    "menu": {"en": "Menu", "ja": "メニュー"},
    "round": {"en": "Round", "ja": "ラウンド"},
    "turn": {"en": "Turn", "ja": "手番"},
    "waiting": {"en": "Waiting", "ja": "待ち"},
    "over": {"en": "Game over", "ja": "ゲーム終了"},
    "stopped": {"en": "Stopped", "ja": "停止しました"},
    "cannot_save": {"en": "CANNOT SAVE", "ja": "保存できません"},
    "screen_error": {"en": "Screen error", "ja": "画面エラー"},
    "see_log": {"en": "(see the log)", "ja": "(ログ参照)"},
    "stopped_hint": {"en": "Safe to unplug.", "ja": "電源を抜けます"},
    "place": {"en": "{place}.", "ja": "{place}位"},
    "seat": {"en": "Seat {number}", "ja": "席{number}"},
    "bot_easy": {"en": "Bot {number} (easy)", "ja": "ボット{number}(かんたん)"},
    "bot_normal": {"en": "Bot {number} (normal)", "ja": "ボット{number}(ふつう)"},
    "bot_strong": {"en": "Bot {number} (strong)", "ja": "ボット{number}(つよい)"},
    "list_separator": {"en": ", ", "ja": "、"},
    "your_turn": {"en": "{name}'s turn", "ja": "{name}の番"},
    "clock_paused": {"en": "Paused (up)", "ja": "時計停止中(上)"},
    "clock_over_target": {"en": "over the target", "ja": "目安超え"},
    "round_over": {"en": "Round over", "ja": "ラウンド終了"},
    "round_over_next": {"en": "Next: the next round", "ja": "次: 次のラウンドへ"},
    "nobody_awaited": {"en": "Nobody to act", "ja": "待ちなし"},
    "nobody_awaited_next": {"en": "Next: the game goes on by itself", "ja": "次: ゲームが自動で進みます"},
    "winner": {"en": "{names} wins", "ja": "{names}の勝ち"},
    "winners": {"en": "{names} win", "ja": "{names}の勝ち"},
    "lions_win": {"en": "The lions win", "ja": "ライオンの勝ち"},
    "pile": {"en": "Square pile: {count} cards", "ja": "山札: {count}枚"},
    "final_lap": {"en": "Final lap", "ja": "最終周"},
    "waiting_count": {"en": "Waiting for {count}", "ja": "{count}人待ち"},
    "drawn_starts": {"en": "Drawn: {name} starts", "ja": "抽選: {name}から"},
    "seat_empty": {"en": "{seat} is empty", "ja": "{seat}は空席"},
    "empty_seat_bot": {"en": "Empty seat: {seats}. Share the join code (back) or add a bot (ok)",
                       "ja": "{seats}は空席: 参加コード(戻る)を見せるか、ボットを入れる(決定)"},
    "empty_seat_bot_do": {"en": "Share the join code (back) or add a bot (ok)",
                          "ja": "参加コード(戻る)を見せるか、ボットを入れる(決定)"},
    "empty_seat_join": {"en": "Empty seat: {seats}. Share the join code (back)",
                        "ja": "{seats}は空席: 参加コード(戻る)を見せてください"},
    "empty_seat_join_do": {"en": "Share the join code (back)", "ja": "参加コード(戻る)を見せてください"},
    "die_shows": {"en": ("Die: {count} pig", "Die: {count} pigs"), "ja": "出目: こぶた{count}"},
    "die_shows_pot": {"en": ("Die: {count} pig + pot", "Die: {count} pigs + pot"), "ja": "出目: こぶた{count}+なべ"},
    "invincibility_used": {"en": "Invincibility used: {names}", "ja": "無敵使用済: {names}"},
    "wolves_at": {"en": "Wolves on squares {squares}", "ja": "オオカミ: マス{squares}"},
    "next_attacks": {"en": "Next attack cards: {numbers}", "ja": "次の攻撃カード: {numbers}"},
    # The captions of the scores' grid: what its numbers count.
    "caption_cards_taken": {"en": "Cards taken", "ja": "取った枚数"},
    "caption_wins": {"en": "Wins", "ja": "勝ち数"},
    "caption_points": {"en": "Points", "ja": "得点"},
    "caption_pigs": {"en": "Pigs", "ja": "こぶた"},
    "caption_scores": {"en": "Scores", "ja": "得点"},
    "caption_herds": {"en": "Herds", "ja": "群れ"},
    "caption_final": {"en": "Final scores", "ja": "最終得点"},
    "colours_of": {"en": "{name}: {colours}", "ja": "{name}: {colours}"},
    # ---------------------------------------------------------------- pages (pages.py)
    "no_buttons": {"en": "NO BUTTONS", "ja": "ボタンなし"},
    "yes": {"en": "Yes", "ja": "はい"},
    "no": {"en": "No", "ja": "いいえ"},
    "join_wifi": {"en": "1. Join the Wi-Fi", "ja": "1. Wi-Fiに接続"},
    "password": {"en": "Password:", "ja": "パスワード:"},
    "join_step": {"en": "2. Join", "ja": "2. 参加"},
    # ---------------------------------------------------------------- menus (menus.py)
    "start_a_game": {"en": "Start a game", "ja": "ゲームを始める"},
    "new_game_same": {"en": "New game (same again)", "ja": "同じゲームをもう一度"},
    "undo_last": {"en": "Undo last action", "ja": "一手戻す"},
    "show_join_code": {"en": "Show join code", "ja": "参加コードを表示"},
    "show_address": {"en": "Show IP address", "ja": "IPアドレスを表示"},
    "play_again": {"en": "Play again", "ja": "もう一度遊ぶ"},
    "bots_more": {"en": "Bots…", "ja": "ボット…"},
    "menu_more": {"en": "Menu…", "ja": "メニュー…"},
    "who_starts": {"en": "Who starts? Draw", "ja": "誰から? 抽選"},
    "choose_game": {"en": "Choose a game", "ja": "ゲームを選ぶ"},
    "players": {"en": "{count} players", "ja": "{count}人"},
    "bots": {"en": "Bots", "ja": "ボット"},
    "add_bot": {"en": "Seat {number}: add a bot", "ja": "{number}番: ボットを入れる"},
    "remove_bot_item": {"en": "Seat {number}: remove bot", "ja": "{number}番: ボットを外す"},
    "bot_for_seat": {"en": "Bot for seat {number}", "ja": "{number}番の席のボット"},
    "ip_address": {"en": "IP address", "ja": "IPアドレス"},
    # The questions: a title, then the question.
    "start": {"en": "Start", "ja": "開始"},
    "start_question": {"en": "Start {title} for {players} players?", "ja": "{title}を{players}人で始めますか?"},
    "new_game": {"en": "New game", "ja": "新しいゲーム"},
    "new_game_question": {"en": "Start {title} again for {players} players?",
                          "ja": "{title}を{players}人でもう一度始めますか?"},
    "running_game_ends": {"en": "The game in progress ends. {question}", "ja": "進行中のゲームは終わります。{question}"},
    "undo": {"en": "Undo", "ja": "一手戻す"},
    "undo_with_replies": {"en": ("Take back {last}, with the bots' {count} reply after it?",
                                 "Take back {last}, with the bots' {count} replies after it?"),
                          "ja": "最後の人の手と、その後のボットの{count}手を取り消しますか: {last}"},
    "undo_move": {"en": "Take back the last move: {last}?", "ja": "最後の一手を取り消しますか: {last}"},
    "undo_action": {"en": "Take back the last action?", "ja": "最後の一手を取り消しますか?"},
    "rematch_question": {"en": "Play again with the same players on the same seats?",
                         "ja": "同じ席の同じメンバーでもう一度遊びますか?"},
    "remove_bot": {"en": "Remove bot", "ja": "ボットを外す"},
    "remove_bot_question": {"en": "Remove the {level} bot from seat {number}? The seat waits for a player.",
                            "ja": "{number}番の席のボット（{level}）を外しますか? 席は空席になります。"},
    "action_question": {"en": "{action}?", "ja": "「{action}」でよろしいですか?"},
    # Refusals: the title over the table's own reason.
    "not_started": {"en": "Not started", "ja": "開始できません"},
    "cannot_undo": {"en": "Cannot undo", "ja": "戻せません"},
    "refused": {"en": "Refused", "ja": "できません"},
    "not_seated": {"en": "Not seated", "ja": "座れません"},
    "not_removed": {"en": "Not removed", "ja": "外せません"},
    "not_drawn": {"en": "Not drawn", "ja": "抽選できません"},
    # ---------------------------------------------------------------- a game's steps and phases
    "step.pass": {"en": "pass a card", "ja": "カードを渡す"},
    "step.play": {"en": "play", "ja": "プレイ"},
    "step.turn": {"en": "turn", "ja": "手番"},
    "step.reveal": {"en": "reveal", "ja": "公開"},
    "step.give": {"en": "give", "ja": "渡す"},
    "step.place": {"en": "place", "ja": "配置"},
    "step.entering": {"en": "entering", "ja": "入力中"},
    "step.round-end": {"en": "round over", "ja": "ラウンド終了"},
    "step.start-player": {"en": "choose start player", "ja": "スタートプレイヤー決め"},
    "step.scouting": {"en": "Scouting", "ja": "下見"},
    "step.building": {"en": "Building", "ja": "ドタバタ建築"},
    "step.ranking": {"en": "Ranking", "ja": "順位決め"},
    "step.pig_action": {"en": "pig action", "ja": "こぶたアクション"},
    "step.roll": {"en": "roll the die", "ja": "サイコロを振る"},
    "step.pigs": {"en": "pig actions", "ja": "こぶたアクション"},
    "step.wolf_move": {"en": "wolves move", "ja": "オオカミ移動"},
    "step.key_wolf_card": {"en": "key in wolf card", "ja": "オオカミカード入力"},
    "step.happening": {"en": "happenings", "ja": "ハプニング"},
    "step.attack": {"en": "wolf attack!", "ja": "オオカミの攻撃!"},
    "step.tiebreak_ground": {"en": "tie-break: ground", "ja": "同点: 1階"},
    "step.tiebreak_outer": {"en": "tie-break: outer", "ja": "同点: 外周"},
    "step.over": {"en": "over", "ja": "終了"},
    "step.start": {"en": "start", "ja": "開始"},
    # ---------------------------------------------------------------- the values of games' options
    "choice.virtual": {"en": "virtual", "ja": "バーチャル"},
    "choice.physical": {"en": "physical", "ja": "実物"},
    "choice.front": {"en": "front", "ja": "表"},
    "choice.back": {"en": "back", "ja": "裏"},
    "choice.clockwise": {"en": "clockwise", "ja": "時計回り"},
    "choice.counterclockwise": {"en": "counter-clockwise", "ja": "反時計回り"},
    "choice.fair": {"en": "fair", "ja": "公平"},
    "choice.random": {"en": "random", "ja": "ランダム"},
    "choice.typed": {"en": "typed", "ja": "入力した配置"},
    "choice.True": {"en": "yes", "ja": "はい"},
    "choice.False": {"en": "no", "ja": "いいえ"},
    "choice.highest": {"en": "highest total", "ja": "合計の多い人"},
    "choice.lowest": {"en": "lowest total", "ja": "合計の少ない人"},
    # ---------------------------------------------------------------- SWAP 5's colours
    # On the one-colour OLED: the letter the phones and rules pages mark each colour with, and
    # its name (colour is never the only sign, and here there is none).
    "colour.R": {"en": "R red", "ja": "R赤"},
    "colour.G": {"en": "G green", "ja": "G緑"},
    "colour.Y": {"en": "Y yellow", "ja": "Y黄"},
    "colour.B": {"en": "B blue", "ja": "B青"},
    # ---------------------------------------------------------------- the trackers' actions (actions.py)
    "action.pig_action": {"en": "Pig action: {kind}", "ja": "こぶたアクション: {kind}"},
    "action.roll": {"en": "Roll the die", "ja": "サイコロを振る"},
    "action.die_face": {"en": "Die shows {pigs}{pot}", "ja": "出目: {pigs}{pot}"},
    "action.pot": {"en": "Pot: {action}", "ja": "なべ: {action}"},
    "action.move_wolves": {"en": "Move the wolves", "ja": "オオカミを動かす"},
    "action.wolf_card": {"en": "Wolf card ({card}): {number}", "ja": "オオカミカード({card}): {number}"},
    "action.happenings_done": {"en": "Happenings done", "ja": "ハプニング終了"},
    "action.attack_done": {"en": "Attack done", "ja": "攻撃終了"},
    # The wolf pieces carry no numbers: a wolf is named by the square it stands on.
    "action.wolf_potted": {"en": "Wolf in a pot (square {square})",
                           "ja": "マス{square}のオオカミがなべに落ちた"},
    "action.pig_lost": {"en": "{name}: pig lost", "ja": "{name}: こぶたを失う"},
    "action.invincible": {"en": "{name}: use invincibility", "ja": "{name}: 無敵を使う"},
    "action.ground_pigs": {"en": "{name}: {count} on ground floor", "ja": "{name}: 1階に{count}"},
    "action.outer_pigs": {"en": "{name}: {count} on outer ring", "ja": "{name}: 外周に{count}"},
    "action.start-player": {"en": "Start player: {seat_name}", "ja": "スタートプレイヤー: {seat_name}"},
    "action.next-round": {"en": "Next round", "ja": "次のラウンドへ"},
    # The score pad (any game played with its own box).
    "action.pass": {"en": "Next player", "ja": "次の人へ"},
    "action.open": {"en": "Correct round {number}", "ja": "{number}ラウンド目を訂正"},
    "action.back_to_round": {"en": "Back to round {number}", "ja": "{number}ラウンド目に戻る"},
    "action.finish": {"en": "Finish the game", "ja": "ゲームを終了"},
    "score_item": {"en": "{name}: {points}", "ja": "{name}: {points}"},
    "none_typed": {"en": "(no name)", "ja": "(名前なし)"},
    "score_points": {"en": "Round {number}: {points}", "ja": "{number}R目: {points}"},
    "score_correcting": {"en": "Fix round {number}: {points}", "ja": "{number}R目訂正: {points}"},
    "score_total": {"en": "Total {total}", "ja": "合計 {total}"},
    "score_keys": {"en": "up +1  down -1", "ja": "上+1 下-1"},
    "caption_totals": {"en": "Totals", "ja": "合計"},
    "pad_round": {"en": "{name}: round {number}", "ja": "{name}: {number}ラウンド目"},
    "pad_correcting": {"en": "Correcting round {number}", "ja": "{number}ラウンド目を訂正中"},
    "pad_lowest_wins": {"en": "Lowest total wins", "ja": "合計の少ない人の勝ち"},
    "action.wolf_potted_sharing": {"en": "Square {square}: wolf {n} of {count} in a pot",
                                   "ja": "なべ:マス{square}の{count}匹中{n}匹目"},
    # ---------------------------------------------------------------- fields of the trackers' actions
    # Pig House's pig actions, pot actions and which physical wolf card is keyed in.
    "field.tile": {"en": "place a tile", "ja": "タイルを置く"},
    "field.move": {"en": "move", "ja": "移動"},
    "field.pass": {"en": "pass", "ja": "パス"},
    "field.place": {"en": "place", "ja": "置く"},
    "field.skip": {"en": "skip", "ja": "置かない"},
    "field.top": {"en": "new top", "ja": "新しい山札の一番上"},
    "field.second": {"en": "second", "ja": "2枚目"},
    "field.placed": {"en": "placed", "ja": "置いたカード"},
    "field.first": {"en": "first", "ja": "1枚目"},
    "field.pigs": {"en": ("{count} pig", "{count} pigs"), "ja": "こぶた{count}"},
    "field.pot": {"en": " + pot", "ja": "+なべ"},
}


def word(key: str, language: str, **values) -> str:
    """The word ``key`` in ``language``, its ``{placeholders}`` filled from ``values``."""
    return WORDS[key][language].format(**values)


def counted(key: str, count: object, language: str, **values) -> str:
    """The words of ``key`` for ``count``, singular for one: "1 win", "2 wins", "2勝"."""
    forms = WORDS[key][language]
    if isinstance(forms, tuple):
        forms = forms[0] if count == 1 else forms[1]
    return forms.format(count=count, **values)

