"""What the panel shows: a small text model per screen, and its drawing on the OLED.

A :class:`Screen` is plain data (a title, body lines, which line is selected, an optional
picture: the join QR code or a die face). :func:`layout` decides what fits — which lines
are visible, each cut to the pixels it has — and both :func:`render` (the PIL image sent
to the display) and :func:`text_lines` (the words tests and ``/api/display.txt`` read)
come from that one layout, so the text model is exactly what the OLED shows and nothing
is ever drawn off-screen.

The status screens (:func:`status_screen`) are built from the table's PUBLIC information
only (``table.public()``): the panel never sees a hand, a herd, a trump card or a pending
secret choice, so it cannot show one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import segno
from PIL import Image, ImageDraw

from companion.games import render_text

from .fonts import FONT_SIZE, fit, panel_font, text_width, wrap

PRODUCT = {"en": "Tabletop Companion", "ja": "テーブルトップ・コンパニオン"}

#: Fixed words of the panel, by language.
WORDS = {
    "code": {"en": "Code", "ja": "コード"},
    "join": {"en": "Join on your phone", "ja": "スマホで参加"},
    "menu": {"en": "Menu", "ja": "メニュー"},
    "round": {"en": "Round", "ja": "ラウンド"},
    "turn": {"en": "Turn", "ja": "手番"},
    "waiting": {"en": "Waiting", "ja": "待ち"},
    "over": {"en": "Game over", "ja": "ゲーム終了"},
    "wins": {"en": "wins", "ja": "勝"},
    "stopped": {"en": "Companion stopped", "ja": "停止しました"},
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
    "round_over": {"en": "Round over", "ja": "ラウンド終了"},
    "round_over_next": {"en": "Next: the next round", "ja": "次: 次のラウンドへ"},
    "nobody_awaited": {"en": "Nobody to act", "ja": "待ちなし"},
    "nobody_awaited_next": {"en": "Next: the game goes on by itself", "ja": "次: ゲームが自動で進みます"},
    "winner": {"en": "{names} wins", "ja": "{names}の勝ち"},
    "winners": {"en": "{names} win", "ja": "{names}の勝ち"},
    "lions_win": {"en": "The lions win", "ja": "ライオンの勝ち"},
    "cards_taken": {"en": "Cards taken:", "ja": "取ったカード:"},
    "pile": {"en": "Square pile: {count} cards", "ja": "山札: {count}枚"},
    "final_lap": {"en": "Final lap", "ja": "最終周"},
    "pigs_of": {"en": "{name}: {count} pigs", "ja": "{name}: こぶた{count}"},
    "invincibility_used": {"en": "Invincibility used: {names}", "ja": "無敵使用済: {names}"},
    "wolves_at": {"en": "Wolves on squares {squares}", "ja": "オオカミ: マス{squares}"},
    "next_attacks": {"en": "Next attack cards: {numbers}", "ja": "次の攻撃カード: {numbers}"},
}

STEP_WORDS = {
    "pass": {"en": "pass a card", "ja": "カードを渡す"},
    "play": {"en": "play", "ja": "プレイ"},
    "turn": {"en": "turn", "ja": "手番"},
    "reveal": {"en": "reveal", "ja": "公開"},
    "give": {"en": "give", "ja": "渡す"},
    "place": {"en": "place", "ja": "配置"},
    "entering": {"en": "entering", "ja": "入力中"},
    "round-end": {"en": "round over", "ja": "ラウンド終了"},
    "start-player": {"en": "choose start player", "ja": "スタートプレイヤー決め"},
    "scouting": {"en": "Scouting", "ja": "下見"},
    "building": {"en": "Building", "ja": "ドタバタ建築"},
    "ranking": {"en": "Ranking", "ja": "順位決め"},
    "pig_action": {"en": "pig action", "ja": "こぶたアクション"},
    "roll": {"en": "roll the die", "ja": "サイコロを振る"},
    "pigs": {"en": "pig actions", "ja": "こぶたアクション"},
    "wolf_move": {"en": "wolves move", "ja": "オオカミ移動"},
    "key_wolf_card": {"en": "key in wolf card", "ja": "オオカミカード入力"},
    "happening": {"en": "happenings", "ja": "ハプニング"},
    "attack": {"en": "wolf attack!", "ja": "オオカミの攻撃!"},
    "tiebreak_ground": {"en": "tie-break: ground", "ja": "同点: 1階"},
    "tiebreak_outer": {"en": "tie-break: outer", "ja": "同点: 外周"},
    "over": {"en": "over", "ja": "終了"},
    "start": {"en": "start", "ja": "開始"},
}


CHOICE_WORDS = {
    "virtual": {"en": "virtual", "ja": "バーチャル"},
    "physical": {"en": "physical", "ja": "実物"},
    "front": {"en": "front", "ja": "表"},
    "back": {"en": "back", "ja": "裏"},
    "clockwise": {"en": "clockwise", "ja": "時計回り"},
    "counterclockwise": {"en": "counter-clockwise", "ja": "反時計回り"},
    "fair": {"en": "fair", "ja": "公平"},
    "random": {"en": "random", "ja": "ランダム"},
    "typed": {"en": "typed", "ja": "入力した配置"},
    True: {"en": "yes", "ja": "はい"},
    False: {"en": "no", "ja": "いいえ"},
}
"""Words for the values of games' options offered as lists of choices (start a game)."""


def choice_word(value: object, language: str) -> str:
    """An option's value in words (a value without words, e.g. a number, as it is)."""
    words = CHOICE_WORDS.get(value) if isinstance(value, (str, bool)) else None
    return words[language] if words else str(value)


def word(key: str, language: str, **values) -> str:
    return WORDS[key][language].format(**values)


def step_word(step: object, language: str) -> str:
    """A game's ``step``/``phase`` string in words (unknown ones shown as they are)."""
    if isinstance(step, str) and step in STEP_WORDS:
        return STEP_WORDS[step][language]
    return str(step).replace("_", " ").replace("-", " ") if step is not None else ""


@dataclass(frozen=True)
class Screen:
    """One screen as data.

    ``kind`` names the screen (``idle``, ``menu``, ``status``, ``confirm``, ``info``,
    ``stopped``); ``selected`` is the highlighted body line of a list, ``scroll`` the first
    body line shown otherwise; ``qr`` a text to show as a QR code on the left;
    ``die`` a rolled face ``(pigs, pot)`` drawn big on the right.
    """

    kind: str
    title: str
    lines: tuple[str, ...] = ()
    selected: int | None = None
    scroll: int = 0
    qr: str | None = None
    die: tuple[int, bool] | None = None
    inverted_title: bool = True
    headline: str | None = None  # drawn twice as big under the title: what matters most now


@dataclass(frozen=True)
class Row:
    """One line of text as laid out: its pixel position and whether it is drawn inverted."""

    x: int
    y: int
    text: str
    inverted: bool = False
    scale: int = 1  # 2: drawn twice as wide and high (the headline, 16 px)


@dataclass(frozen=True)
class Layout:
    rows: tuple[Row, ...]
    qr_box: tuple[int, int, int] | None = None  # x, y, side in pixels
    die_box: tuple[int, int, int] | None = None
    extra: dict = field(default_factory=dict)


QR_PIXELS_PER_MODULE = 2
QR_MIN_QUIET_PIXELS = 3  # lit pixels at least, around the code
DIE_SIDE = 40


HEADLINE_SCALE = 2
"""The headline's glyphs are the font's doubled: 16 px high, still whole pixels."""


def body_rows(height: int, headline: bool = False) -> int:
    """How many body lines fit under the title bar (and the headline, if any)."""
    return (height - (HEADLINE_SCALE * FONT_SIZE if headline else 0)) // FONT_SIZE - 1


def visible_window(screen: Screen, rows: int) -> int:
    """The index of the first body line shown: the selected line is always visible."""
    count = len(screen.lines)
    if count <= rows:
        return 0
    if screen.selected is not None:
        return min(max(0, screen.selected - rows + 1), count - rows) if screen.selected >= rows else 0
    return min(max(0, screen.scroll), count - rows)


def _die_box(width: int, height: int) -> tuple[int, int, int]:
    """Where the die goes: right, under the title bar, beside the headline and body lines."""
    side = min(DIE_SIDE, height - FONT_SIZE - 2)
    return width - side - 1, FONT_SIZE + 1 + (height - FONT_SIZE - 1 - side) // 2, side


DISPLAY_WIDTH = 128
"""Every supported module is 128 pixels wide (companion/config.py), 64 or 32 high."""


def headline_room(die: bool) -> int:
    """The pixels the headline has on every supported display: the whole width, or (the die
    beside it) up to the die as drawn on the 64 px display, the larger die of the two."""
    if not die:
        return DISPLAY_WIDTH
    return min(DISPLAY_WIDTH - _die_box(DISPLAY_WIDTH, height)[2] - 3 for height in (64, 32))


def layout(screen: Screen, width: int, height: int) -> Layout:
    """Where every line goes on a ``width`` × ``height`` display, each cut to fit."""
    qr_box = die_box = None
    text_left, text_right = 0, width
    if screen.qr is not None and height >= 64 and width >= 2 * height:
        side = height
        qr_box = (0, 0, side)
        text_left = side + 2
    if screen.die is not None:
        die_box = _die_box(width, height)
        text_right = width - die_box[2] - 3

    def room(y: int, line_height: int) -> int:
        """The pixels a line at ``y`` has: up to the die where it runs beside it."""
        return width if die_box is None or y + line_height <= die_box[1] else text_right

    rows: list[Row] = []
    if qr_box:
        # Beside the QR code there is no title bar: the title is the first line of the column.
        column = [screen.title, *screen.lines]
        for index, line in enumerate(column[: height // FONT_SIZE]):
            rows.append(Row(text_left, index * FONT_SIZE, fit(line, width - text_left)))
        return Layout(tuple(rows), qr_box, die_box)
    rows.append(Row(0, 0, fit(screen.title, width), inverted=screen.inverted_title))
    top = FONT_SIZE
    if screen.headline is not None:
        tall = HEADLINE_SCALE * FONT_SIZE
        rows.append(Row(0, top, fit(screen.headline, room(top, tall) / HEADLINE_SCALE), scale=HEADLINE_SCALE))
        top += tall
    count = body_rows(height, screen.headline is not None)
    first = visible_window(screen, count)
    for index, line in enumerate(screen.lines[first : first + count]):
        number = first + index
        y = top + index * FONT_SIZE
        rows.append(Row(0, y, fit(line, room(y, FONT_SIZE)), inverted=screen.selected == number))
    return Layout(tuple(rows), qr_box, die_box)


def text_lines(screen: Screen, width: int, height: int) -> list[str]:
    """The lines of text the display shows, top to bottom (the panel's text model).

    A highlighted body line (the menu's choice) starts with "> "; pictures are named in
    brackets after the text: ``[QR <data>]``, ``[die <pigs>( pot)]``.
    """
    shown = layout(screen, width, height)
    lines = [("> " if row.inverted and row.y else "") + row.text for row in shown.rows]
    if screen.qr is not None and shown.qr_box is None:
        return lines  # 32 px displays have no room for the code; its URL is in the lines
    if shown.qr_box is not None:
        lines.append(f"[QR {screen.qr}]")
    if shown.die_box is not None and screen.die is not None:
        pigs, pot = screen.die
        lines.append(f"[die {pigs}{' pot' if pot else ''}]")
    return lines


def render(screen: Screen, width: int, height: int) -> Image.Image:
    """The one-bit image of ``screen`` for a ``width`` × ``height`` display."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    font = panel_font()
    shown = layout(screen, width, height)
    for row in shown.rows:
        if row.scale != 1:
            _draw_scaled(image, row, font)
            continue
        if row.inverted:
            draw.rectangle((row.x, row.y, width - 1, row.y + FONT_SIZE - 1), fill=1)
        draw.text((row.x, row.y), row.text, font=font, fill=0 if row.inverted else 1)
    if shown.qr_box is not None:
        _draw_qr(image, screen.qr, shown.qr_box)
    if shown.die_box is not None and screen.die is not None:
        _draw_die(draw, shown.die_box, *screen.die)
    return image


def _draw_scaled(image: Image.Image, row: Row, font) -> None:
    """``row`` drawn at the font's own size and enlarged pixel for pixel: a bitmap font
    scaled by a whole number stays as crisp as it is at 8 px."""
    small = Image.new("1", (max(1, (image.width - row.x) // row.scale), FONT_SIZE), 0)
    ImageDraw.Draw(small).text((0, 0), row.text, font=font, fill=1)
    big = small.resize((small.width * row.scale, FONT_SIZE * row.scale), Image.Resampling.NEAREST)
    image.paste(big, (row.x, row.y))


def _draw_qr(image: Image.Image, text: str, box: tuple[int, int, int]) -> None:
    """The code as dark modules on a lit square, so the lit margin is its quiet zone.

    An upper-case URL is alphanumeric data, which keeps a join URL within version 2
    (25 modules): at 2 px per module it is 50 px, centred in 64 px with 3.5 modules of
    quiet zone around it. A Wi-Fi code (``WIFI:...``, byte data) needs version 3 (29 modules):
    58 px with 1.5 modules of quiet zone, which phone cameras read; only a larger code falls
    back to 1 px per module.
    """
    x, y, side = box
    code = segno.make_qr(text, error="l", boost_error=False, eci=True)  # eci: a UTF-8 SSID says so
    modules = code.symbol_size(scale=1, border=0)[0]
    scale = QR_PIXELS_PER_MODULE if modules * QR_PIXELS_PER_MODULE + 2 * QR_MIN_QUIET_PIXELS <= side else 1
    draw = ImageDraw.Draw(image)
    draw.rectangle((x, y, x + side - 1, y + side - 1), fill=1)
    offset_x = x + (side - modules * scale) // 2
    offset_y = y + (side - modules * scale) // 2
    for row_index, row in enumerate(code.matrix):
        for col_index, dark in enumerate(row):
            if dark:
                left, top = offset_x + col_index * scale, offset_y + row_index * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)


#: Pip positions on a 3 × 3 grid for 1..6 pips (column, row).
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def _draw_die(draw: ImageDraw.ImageDraw, box: tuple[int, int, int], pigs: int, pot: bool) -> None:
    """A big die face: one pip per pig; a pot face gets a filled band along the bottom."""
    x, y, side = box
    draw.rounded_rectangle((x, y, x + side - 1, y + side - 1), radius=5, outline=1, width=2)
    cell = side // 4
    radius = max(2, side // 12)
    for col, row in PIPS.get(pigs, []):
        cx, cy = x + cell * (col + 1), y + cell * (row + 1) - (3 if pot else 0)
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=1)
    if pot:
        draw.rectangle((x + 5, y + side - 8, x + side - 6, y + side - 5), fill=1)


# ============================================================================ status screens


@dataclass(frozen=True)
class StatusInput:
    """What a status screen is built from: the table's public information only."""

    game: str
    title: str
    names: list[str]  # every seat's name, "Seat n" where free
    view: dict  # table.public()["view"]: the public game view and its envelope
    language: str


def seat_names(public_info: dict, language: str = "en") -> list[str]:
    """Every seat's name, ``Seat n`` for a free seat; a bot's in ``language`` from its level."""
    return [word(f"bot_{seat['bot']}", language, number=seat["seat"] + 1) if seat.get("bot")
            else seat["name"] or word("seat", language, number=seat["seat"] + 1) for seat in public_info["seats"]]


def status_screen(public_info: dict, language: str, scroll: int = 0) -> Screen:
    """The in-game status screen of whatever game is on the table (from public data only):
    the headline (whose turn, who is awaited, or the result) big, the rest in words below."""
    game = public_info["game"]
    view = public_info["view"]
    names = seat_names(public_info, language)  # the table lists every seat of the game, free ones too
    info = StatusInput(game["id"], game["title"][language], names, view, language)
    if view["over"]:
        headline, lines = _result(info, headline_room(die=False))
        die = None
    else:
        builder = STATUS_BUILDERS.get(game["id"], _generic_status)
        more, die = builder(info)
        headline, lines = _awaited(info, headline_room(die=die is not None))
        lines += more
        last = _last_event(info)
        if last:
            lines.append(last)
        # A bot that cannot move says why (the table keeps its words): first, where it is seen.
        lines[:0] = [f"{names[int(seat)]}: {words[language]}" for seat, words in view.get("troubles", {}).items()]
    lines = [line for line in lines if line]
    return Screen("status", info.title, tuple(lines), scroll=scroll, die=die, headline=headline)


def short(name: str, pixels: int = 40) -> str:
    """A player name cut to ``pixels`` (40 px: 10 Latin letters or 5 kana)."""
    return fit(name, pixels)


def _listed(info: StatusInput, seats: list[int]) -> str:
    return word("list_separator", info.language).join(info.names[seat] for seat in seats)


def _headline(whole: str, names: str, room: int) -> tuple[str, list[str]]:
    """``whole`` as the headline if it fits in ``room`` pixels; else the names big (cut to
    fit) and the whole sentence small below, so the headline never loses its last words."""
    if text_width(whole) * HEADLINE_SCALE <= room:
        return whole, []
    return fit(names, room / HEADLINE_SCALE), [whole]


def _awaited(info: StatusInput, room: int) -> tuple[str, list[str]]:
    """The headline of a running game (``room`` pixels wide): whose input the step needs
    (``waiting_for``; an older server's views have only ``to_act``), or what comes next when
    nobody is awaited."""
    view = info.view
    waiting = view.get("waiting_for", view["to_act"])
    language = info.language
    if len(waiting) == 1:
        name = info.names[waiting[0]]
        return _headline(word("your_turn", language, name=name), name, room)
    if waiting:
        names = _listed(info, waiting)
        return _headline(f"{word('waiting', language)}: {names}", names, room)
    public = view["public"] if isinstance(view["public"], dict) else {}
    step = public.get("step") or public.get("phase")
    pause = "round_over" if step == "round-end" else "nobody_awaited"
    return word(pause, language), [word(f"{pause}_next", language)]


def _result(info: StatusInput, room: int) -> tuple[str, list[str]]:
    """The end (headline ``room`` pixels wide): who won big, the game's own summary, then
    everyone's place."""
    result = info.view["result"] or {}
    language = info.language
    winners = list(result.get("winners") or [])
    lines: list[str] = []
    if result.get("lions_win"):
        headline = word("lions_win", language)
    elif winners:
        names = _listed(info, winners)
        headline, lines = _headline(word("winner" if len(winners) == 1 else "winners", language, names=names), names, room)
    else:
        headline = word("over", language)
    summary = result.get("summary")
    lines += wrap(render_text(summary[language], info.names), 128) if isinstance(summary, dict) else []
    return headline, lines + _ranking_lines(info)


def _score_lines(info: StatusInput, values: list, suffix: str = "") -> list[str]:
    """``name value`` pairs, two per line."""
    cells = [f"{short(info.names[seat])} {value}{suffix}" for seat, value in enumerate(values)]
    lines = []
    for pair in range(0, len(cells), 2):
        left = cells[pair]
        padding = " " * max(1, int((64 - text_width(left)) // 4))
        lines.append(left + padding + cells[pair + 1] if pair + 1 < len(cells) else left)
    return lines


def _round_line(info: StatusInput, public: dict) -> str:
    step = public.get("step") or public.get("phase")
    round_part = f"{word('round', info.language)} {public['round']}/{public['rounds']} " if "round" in public and "rounds" in public else ""
    return f"{round_part}{step_word(step, info.language)}"


def _last_event(info: StatusInput) -> str:
    log = info.view.get("log") or []
    if not log:
        return ""
    return "→" + render_text(log[-1]["text"][info.language], info.names)


def _ranking_lines(info: StatusInput) -> list[str]:
    """Everyone's place from the result; where the lions won nobody is placed, each player
    is listed with their score only."""
    result = info.view["result"] or {}
    scores = result.get("scores") or {}
    if result.get("lions_win"):
        return [f"  {short(name, 60)} {scores.get(str(seat), '')}".rstrip() for seat, name in enumerate(info.names)]
    ranking = result.get("ranking")
    winners = set(result.get("winners") or [])
    if isinstance(ranking, list) and ranking and isinstance(ranking[0], dict) and "place" in ranking[0]:
        places = [(entry["place"], entry["seat"]) for entry in ranking]
    else:
        # The winners share first place even when a tie-break chose them among equal
        # scores (SWAP 5); the others follow by score, equal scores sharing a place.
        def standing(seat: int) -> tuple:
            return (0, 0) if seat in winners else (1, -_number(scores.get(str(seat))))

        ordered = sorted(range(len(info.names)), key=standing)
        places, previous, place = [], None, 0
        for index, seat in enumerate(ordered):
            if standing(seat) != previous:
                place, previous = index + 1, standing(seat)
            places.append((place, seat))
    lines = []
    for place, seat in places:
        score = scores.get(str(seat))
        crown = "★" if seat in winners else " "
        score_text = f" {score}" if score is not None else ""
        lines.append(f"{crown}{word('place', info.language, place=place)} {short(info.names[seat], 60)}{score_text}")
    return lines


def _number(value: object) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else float("-inf")


def _generic_status(info: StatusInput) -> tuple[list[str], None]:
    """Any game: its step and its public scores when it has some."""
    public = info.view["public"] if isinstance(info.view["public"], dict) else {}
    lines = [_round_line(info, public)]
    scores = public.get("scores")
    if isinstance(scores, dict):
        lines += _score_lines(info, [scores.get(str(s), "-") for s in range(len(info.names))])
    elif isinstance(scores, list):
        lines += _score_lines(info, scores)
    return lines, None


def _lion_square(info: StatusInput) -> tuple[list[str], None]:
    public = info.view["public"]
    lines = [_round_line(info, public), word("cards_taken", info.language)]
    lines += _score_lines(info, public["taken"])
    lines.append(word("pile", info.language, count=public["pile"]))
    return lines, None


def _meow_oracle(info: StatusInput) -> tuple[list[str], None]:
    public = info.view["public"]
    lines = [_round_line(info, public)]
    lines += _score_lines(info, public["wins"], " " + word("wins", info.language))
    return lines, None


def _swap5(info: StatusInput) -> tuple[list[str], None]:
    public = info.view["public"]
    lines = [_round_line(info, public)]
    lines += _score_lines(info, [public["scores"][str(s)] for s in range(len(info.names))])
    if public.get("final_lap") is not None:
        lines.append(word("final_lap", info.language))
    return lines, None


def _meow_oracle_scorer(info: StatusInput) -> tuple[list[str], None]:
    public = info.view["public"]
    lines = [_round_line(info, public)]
    lines += _score_lines(info, public["wins"], " " + word("wins", info.language))
    return lines, None


def _pig_house(info: StatusInput) -> tuple[list[str], tuple[int, bool] | None]:
    public = info.view["public"]
    language = info.language
    lines = [f"{step_word(public['phase'], language)} {word('turn', language)} {public['turn']}",
             step_word(public["step"], language)]
    # One player a line: the die takes the right of the screen.
    lines += [word("pigs_of", language, name=short(info.names[s], 60), count=pigs) for s, pigs in enumerate(public["pigs"])]
    used = [s for s, spent in enumerate(public["invincibility_used"]) if spent]
    if used:
        lines.append(word("invincibility_used", language, names=_listed(info, used)))
    squares = ", ".join(str(wolf["square"]) for wolf in public["wolves"])
    lines.append(word("wolves_at", language, squares=squares))
    upcoming = [str(chip["card"]["number"]) for chip in public.get("schedule", []) if chip.get("card")]
    if upcoming:
        lines.append(word("next_attacks", language, numbers=", ".join(upcoming)))
    die = public.get("die")
    return lines, (die["pigs"], bool(die["pot"])) if die else None


STATUS_BUILDERS = {
    "lion-square": _lion_square,
    "meow-oracle": _meow_oracle,
    "swap5": _swap5,
    "pig-house": _pig_house,
    "meow-oracle-scorer": _meow_oracle_scorer,
}
"""The dedicated status screens; any other game id gets :func:`_generic_status`."""
