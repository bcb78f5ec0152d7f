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

import functools
from dataclasses import dataclass, field

import segno
from PIL import Image, ImageDraw

from companion.games import render_text
from companion.games.base import FIRST_PLAYER

from .fonts import ELLIPSIS, FONT_SIZE, LONGEST_LINE, fit, panel_font, text_width, wrap
from .words import WORDS, counted, word


def choice_word(value: object, language: str) -> str:
    """An option's value in words (a value without words, e.g. a number, as it is)."""
    key = f"choice.{value}"
    return word(key, language) if isinstance(value, (str, bool)) and key in WORDS else str(value)


def step_word(step: object, language: str) -> str:
    """A game's ``step``/``phase`` string in words (unknown ones shown as they are)."""
    if isinstance(step, str) and f"step.{step}" in WORDS:
        return word(f"step.{step}", language)
    return str(step).replace("_", " ").replace("-", " ") if step is not None else ""


@dataclass(frozen=True)
class Screen:
    """One screen as data.

    ``kind`` names the screen (``idle``, ``menu``, ``status``, ``confirm``, ``info``,
    ``stopped``); ``selected`` is the highlighted body line of a list, ``scroll`` the first
    body line shown otherwise; ``qr`` a text to show as a QR code on the left;
    ``die`` a rolled face ``(pigs, pot)``, drawn as a small die at the right of a status
    screen's headline (the face is in words below: the pot only there).

    A ``big`` screen (the status screens) has no title bar: its ``title`` stays in the data
    (the game's name), the ``headline`` is drawn first, inverted, then the lines. A
    ``confirm`` screen has none either: its lines are the question (wrapped by the layout),
    then the two answers, drawn side by side on the last row; ``selected`` is 1 or 2.
    """

    kind: str
    title: str
    lines: tuple[str, ...] = ()
    selected: int | None = None
    scroll: int = 0
    qr: str | None = None
    die: tuple[int, bool] | None = None
    inverted_title: bool = True
    headline: str | None = None  # a status screen's first row, inverted: what matters most now
    big: bool = False  # a status screen: no title bar, the headline first
    marked: tuple[int, ...] = ()  # a status screen's body lines drawn inverted (a turn past its target)


@dataclass(frozen=True)
class Row:
    """One text on the glass as laid out: its pixel position, the width of its lit bar when
    inverted (0: to the right edge), and whether it is drawn inverted."""

    x: int
    y: int
    text: str
    inverted: bool = False
    width: int = 0
    line: str | None = None  # the whole list line of an item wrapped over two rows ("" on its second)


@dataclass(frozen=True)
class Layout:
    rows: tuple[Row, ...]
    qr_box: tuple[int, int, int] | None = None  # x, y, side in pixels
    die_box: tuple[int, int, int] | None = None
    extra: dict = field(default_factory=dict)


QR_PIXELS_PER_MODULE = 2
QR_MIN_QUIET_PIXELS = 3  # lit pixels at least, around the code

ROW = FONT_SIZE
"""Every row of every screen is one 16 px line of the font: nothing on the panel is smaller
(capitals 10 px high, kana and kanji 11 to 16 px). A 64 px display shows 4 rows, a 32 px
one 2; what does not fit is paged (status, text) or scrolled (lists)."""

DIE_ICON = ROW
"""The rolled die is drawn this big at the right of the headline; its face is in words below."""


def visible_window(screen: Screen, rows: int) -> int:
    """The index of the first body line shown: the selected line is always visible."""
    count = len(screen.lines)
    if count <= rows:
        return 0
    if screen.selected is not None:
        return min(max(0, screen.selected - rows + 1), count - rows) if screen.selected >= rows else 0
    return min(max(0, screen.scroll), count - rows)


DISPLAY_WIDTH = 128
"""Every supported module is 128 pixels wide (companion/config.py), 64 or 32 high."""


def status_headline_room(die: bool) -> int:
    """The pixels a status headline row has: the whole width, or up to the die's icon."""
    return DISPLAY_WIDTH - (DIE_ICON + 2 if die else 0)


def status_headline_rows(text: str, die: bool) -> list[str]:
    """A status headline broken into rows (the status screen shows only its first: a longer
    one gives way to a shorter one, see :func:`_headline`)."""
    return wrap(_bounded(text), status_headline_room(die))


def status_body_rows(screen: Screen, height: int) -> int:
    """How many body rows of a status screen show under its headline on a ``height`` display."""
    return max(1, height // ROW - 1)


def _status_layout(screen: Screen, width: int, height: int) -> Layout:
    """A status screen: the headline inverted on the first row (the die's icon at its right),
    then the body rows; the lines come wrapped to a row (:func:`status_screen`), so nothing
    is cut but a name in the scores' grid. A 2 px bar at the right shows where the page is
    when there are more."""
    room = status_headline_room(screen.die is not None)
    rows = [Row(0, 0, fit(screen.headline or "", room), inverted=True)]
    top = ROW
    count = max(0, (height - top) // ROW)
    first = visible_window(screen, count)
    for index, line in enumerate(screen.lines[first : first + count]):
        rows.append(Row(0, top + index * ROW, fit(line, width), inverted=first + index in screen.marked))
    extra = {}
    if len(screen.lines) > count:
        extra["page"] = (first, count, len(screen.lines), top, height)
    die_box = (width - DIE_ICON, 0, DIE_ICON) if screen.die is not None else None
    return Layout(tuple(rows), None, die_box, extra)


def _confirm_layout(screen: Screen, width: int, height: int) -> Layout:
    """A question: its rows from the top, the two answers side by side on the last row, the
    highlighted one inverted. A question longer than the rows above the answers shows the
    page from ``scroll`` (:class:`hardware.panel.ConfirmPage` turns them), a 2 px bar at the
    right saying which; the text model reads the whole question as one line."""
    text, yes, no = screen.lines
    room = max(1, height // ROW - 1)
    question = wrap(_bounded(text), width)
    paged = len(question) > room
    if paged:  # leave room for the page bar
        question = wrap(_bounded(text), width - PAGE_BAR)
    first = min(screen.scroll, max(0, len(question) - 1))
    shown = question[first : first + room]
    rows = [Row(0, index * ROW, fit(line, width), line="" if index else _bounded(text))
            for index, line in enumerate(shown)]
    half = width // 2
    top = min(len(question), room) * ROW
    for index, answer in enumerate((yes, no)):
        text = fit(answer, half - 4)
        x = index * half + (half - int(text_width(text))) // 2
        rows.append(Row(x, top, text, inverted=screen.selected == 1 + index, width=int(text_width(text))))
    extra = {"page": (first, room, len(question), 0, top)} if paged else {}
    return Layout(tuple(rows), extra=extra)


def qr_side(text: str, height: int) -> int:
    """The side of the lit square a QR code of ``text`` is drawn on: the code at
    QR_PIXELS_PER_MODULE with its quiet margin, at most the display's height."""
    modules = _qr(text).symbol_size(scale=1, border=0)[0]
    return min(height, modules * QR_PIXELS_PER_MODULE + 2 * QR_MIN_QUIET_PIXELS)


def qr_text_room(text: str, width: int, height: int) -> int:
    """The pixels a row of text has beside the QR code of ``text``."""
    return width - qr_side(text, height) - 2


def layout(screen: Screen, width: int, height: int) -> Layout:
    """Where every line goes on a ``width`` × ``height`` display, each cut to fit."""
    if screen.big:
        return _status_layout(screen, width, height)
    if screen.kind == "confirm" and len(screen.lines) == 3:
        return _confirm_layout(screen, width, height)
    qr_box = None
    if screen.qr is not None and height >= 64 and width >= 2 * height:
        qr_box = (0, 0, qr_side(screen.qr, height))
    rows: list[Row] = []
    if qr_box:
        # Beside the QR code there is no title bar: the title is the first line of the column,
        # wrapped when it is wider (a flag such as "NO BUTTONS" must be read whole, not cut).
        text_left = qr_box[2] + 2
        title = wrap(screen.title, width - text_left) if screen.title and text_width(screen.title) > width - text_left \
            else [screen.title] if screen.title else []
        column = [*title, *screen.lines]
        for index, line in enumerate(column[: height // ROW]):
            rows.append(Row(text_left, index * ROW, fit(line, width - text_left)))
        return Layout(tuple(rows), qr_box)
    if not screen.title:  # no title, no title bar: the lines from the top
        count = height // ROW
        first = visible_window(screen, count)
        return Layout(tuple(Row(0, index * ROW, fit(line, width))
                            for index, line in enumerate(screen.lines[first : first + count])))
    rows.append(Row(0, 0, fit(screen.title, width), inverted=screen.inverted_title))
    if screen.selected is not None:
        return Layout((*rows, *_list_rows(screen, width, height)))
    count = height // ROW - 1
    first = visible_window(screen, count)
    for index, line in enumerate(screen.lines[first : first + count]):
        rows.append(Row(0, ROW + index * ROW, fit(line, width)))
    return Layout(tuple(rows), qr_box)


ITEM_ROWS = 2
"""A list's item longer than a row wraps over at most this many ("Seat 3: add a" / "bot")."""


def _list_rows(screen: Screen, width: int, height: int) -> list[Row]:
    """A list under its title bar: each item on a row, or wrapped over ITEM_ROWS (the second
    cut with "…" if it must be), the highlighted one inverted and always whole on the glass."""
    items = []
    for line in screen.lines:
        wrapped = wrap(line, width) if text_width(line) > width else [line]
        if len(wrapped) > ITEM_ROWS:
            wrapped = [*wrapped[: ITEM_ROWS - 1], fit(" ".join(wrapped[ITEM_ROWS - 1 :]) + ELLIPSIS * 2, width)]
        items.append([fit(row, width) for row in wrapped])
    flat = [(number, index, text) for number, item in enumerate(items) for index, text in enumerate(item)]
    count = height // ROW - 1
    chosen = [place for place, (number, _, _) in enumerate(flat) if number == screen.selected]
    first = max(0, chosen[-1] - count + 1) if chosen else 0
    if chosen and first > chosen[0]:
        first = chosen[0]
    rows = []
    for place, (number, index, text) in enumerate(flat[first : first + count]):
        whole = screen.lines[number] if len(wrap(screen.lines[number], width)) <= ITEM_ROWS else " ".join(items[number])
        rows.append(Row(0, ROW + place * ROW, text, inverted=number == screen.selected,
                        line=whole if index == 0 else ""))
    return rows


def stopped_screen(language: str, width: int) -> Screen:
    """What the glass keeps once the companion has stopped."""
    return Screen("stopped", word("stopped", language), (*wrap(word("product", language), width), word("stopped_hint", language)))


def text_lines(screen: Screen, width: int, height: int) -> list[str]:
    """The lines of text the display shows, top to bottom (the panel's text model).

    A highlighted body line (the menu's choice, a question's answer) starts with "> "; a
    question's two answers, side by side on its last row, are two lines; a question, or a
    list's item wrapped over two rows, is one (its rows joined by a space). Pictures are named in
    brackets after the text: ``[QR <data>]``, ``[die <pigs>( pot)]``, and a page of more
    lines as ``[lines <first>-<last> of <count>]``.
    """
    shown = layout(screen, width, height)
    lines = [("> " if row.inverted and row.y and not screen.big else "") + (row.text if row.line is None else row.line)
             for row in shown.rows if row.line != ""]
    if screen.qr is not None and shown.qr_box is None:
        return lines  # 32 px displays have no room for the code; its URL is in the lines
    if shown.qr_box is not None:
        lines.append(f"[QR {screen.qr}]")
    if shown.die_box is not None and screen.die is not None:
        pigs, pot = screen.die
        lines.append(f"[die {pigs}{' pot' if pot else ''}]")
    if "page" in shown.extra:
        first, count, total, *_ = shown.extra["page"]
        lines.append(f"[lines {first + 1}-{min(first + count, total)} of {total}]")
    return lines


def render(screen: Screen, width: int, height: int) -> Image.Image:
    """The one-bit image of ``screen`` for a ``width`` × ``height`` display."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    font = panel_font()
    shown = layout(screen, width, height)
    for row in shown.rows:
        if row.inverted:
            right = row.x + row.width + 1 if row.width else width - 1
            draw.rectangle((max(0, row.x - 2 if row.width else row.x), row.y, min(width - 1, right), row.y + ROW - 1),
                           fill=1)
        draw.text((row.x, row.y), row.text, font=font, fill=0 if row.inverted else 1)
    if shown.qr_box is not None:
        _draw_qr(image, screen.qr, shown.qr_box)
    if shown.die_box is not None and screen.die is not None:
        _draw_die_icon(draw, shown.die_box, screen.die[0])
    if "page" in shown.extra:
        _draw_page_bar(draw, width, *shown.extra["page"])
    return image


def _draw_page_bar(draw: ImageDraw.ImageDraw, width: int, first: int, count: int, total: int, top: int,
                   bottom: int) -> None:
    """A 2 px bar down the right edge of the body: its lit part is the share of the lines
    shown, where they are. A row is cut 2 px short of the edge when there is a bar (see
    :func:`fit`'s callers), so it touches no glyph."""
    span = bottom - top
    start = top + span * first // total
    end = top + max(span * min(first + count, total) // total, span * first // total + 2)
    draw.rectangle((width - 2, start, width - 1, end - 1), fill=1)


def _draw_die_icon(draw: ImageDraw.ImageDraw, box: tuple[int, int, int], pigs: int) -> None:
    """The rolled die, small, on the lit headline bar: a dark outline and dark 2 px pips."""
    x, y, side = box
    draw.rectangle((x, y, x + side - 1, y + side - 1), fill=1)
    draw.rectangle((x + 1, y + 1, x + side - 2, y + side - 2), outline=0)
    step = (side - 4) // 3
    for col, row in PIPS.get(pigs, []):
        left, top = x + 3 + col * step, y + 3 + row * step
        draw.rectangle((left, top, left + 1, top + 1), fill=0)


def _draw_qr(image: Image.Image, text: str, box: tuple[int, int, int]) -> None:
    """The code as dark modules on a lit square, so the lit margin is its quiet zone.

    An upper-case URL is alphanumeric data, which keeps a join URL within version 2
    (25 modules): at 2 px per module it is 50 px, on a 56 px lit square (:func:`qr_side`: 1.5
    modules of quiet zone, which phone cameras read), leaving 70 px beside it for 8 characters
    of 16 px text. A Wi-Fi code (``WIFI:...``, byte data) needs version 3 (29 modules): 58 px
    on 64 px; only a larger code falls back to 1 px per module.
    """
    x, y, side = box
    code = _qr(text)
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


@functools.cache
def _qr(text: str):
    """The QR code of ``text`` (cached: the layout sizes it, the drawing draws it)."""
    return segno.make_qr(text, error="l", boost_error=False, eci=True)  # eci: a UTF-8 SSID says so


#: Pip positions on a 3 × 3 grid for 1..6 pips (column, row).
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


# ============================================================================ status screens


@dataclass(frozen=True)
class StatusInput:
    """What a status screen is built from: the table's public information only."""

    game: str
    title: str
    names: list[str]  # every seat's name, "Seat n" where free
    view: dict  # table.public()["view"]: the public game view and its envelope
    language: str
    free: set[int] = field(default_factory=set)  # free seats worth telling about


def seat_names(public_info: dict, language: str = "en") -> list[str]:
    """Every seat's name, ``Seat n`` for a free seat; a bot's in ``language`` from its level."""
    return [word(f"bot_{seat['bot']}", language, number=seat["seat"] + 1) if seat.get("bot")
            else seat["name"] or word("seat", language, number=seat["seat"] + 1) for seat in public_info["seats"]]


@dataclass(frozen=True)
class Scores:
    """Every seat's public score, shown as a grid under a caption (see :func:`score_rows`)."""

    caption: str
    values: list  # by seat


SCORE_GAP = " "
"""Between a name and its score in a cell of the scores' grid."""

CELL_SEPARATOR = "│"
"""Between the two cells of a grid row (a box-drawing line, one half-width column)."""


def score_rows(scores: Scores, names: list[str], width: int, rows: int) -> list[str]:
    """The caption, then one row a seat ("Taro        3", the score at the right) when they
    all fit in ``rows`` body rows with it, else two seats a row ("Taro   3│Hanako 2"), so a
    4-player game's scores fit three rows of a 64 px display. A name too long for its cell
    is cut with "…" (it is whole in the headline when its seat is awaited, and on the phones)."""
    cells = [(names[seat], str(value)) for seat, value in enumerate(scores.values)]
    if len(cells) + 1 <= rows:
        return [scores.caption, *(_cell(name, value, width) for name, value in cells)]
    half = (width - text_width(CELL_SEPARATOR)) // 2
    grid = []
    for first in range(0, len(cells), 2):
        pair = [_cell(name, value, half) for name, value in cells[first : first + 2]]
        grid.append(CELL_SEPARATOR.join(pair))
    return [scores.caption, *grid]


def _cell(name: str, value: str, width: float) -> str:
    """``name`` and ``value`` in ``width`` pixels: the name cut to fit, the value at the right
    (the font is monospaced in 8 px columns, so spaces align it to the pixel)."""
    room = width - text_width(value) - text_width(SCORE_GAP)
    name = fit(name, room)
    padding = int((width - text_width(name) - text_width(value)) // text_width(" "))
    return f"{name}{' ' * padding}{value}"


def status_screen(public_info: dict, language: str, scroll: int = 0, height: int = 64,
                  empty_seat_help: str | None = "join", clock: dict | None = None) -> Screen:
    """The in-game status screen of whatever game is on the table (from public data only):
    the headline (whose turn, who is awaited, or the result), then the turn clock (``clock``:
    ``companion.clock.TurnClock.view``, see :func:`clock_lines`), what to do about an
    empty seat, every seat's public score (:func:`score_rows`), and the rest in words,
    every line wrapped to the rows of a ``height`` px display.

    ``empty_seat_help`` says what to do about an awaited free seat: ``"bot"`` (share the
    join code, or add a bot from the game menu), ``"join"`` (share the join code), or None
    where the panel itself plays every step (the Pig House tracker): then a free seat is
    named like any other."""
    game = public_info["game"]
    view = public_info["view"]
    names = seat_names(public_info, language)  # the table lists every seat of the game, free ones too
    free = {seat["seat"] for seat in public_info["seats"] if not seat["taken"]} if empty_seat_help else set()
    info = StatusInput(game["id"], game["title"][language], names, view, language, free)
    if view["over"]:
        headline, first, scores, lines = _result(info)
        die = None
    else:
        builder = STATUS_BUILDERS.get(game["id"], _generic_status)
        scores, lines, die = builder(info)
        headline, first, below = _awaited(info, die is not None, empty_seat_help)
        lines = [*below, *lines]
        last = _last_event(info)
        if last:
            lines.append(last)
        # A bot that cannot move says why (the table keeps its words): first, where it is seen.
        first[:0] = [f"{names[int(seat)]}: {words[language]}" for seat, words in view.get("troubles", {}).items()]
        drawn = view["options"].get(FIRST_PLAYER)
        if drawn is not None and view["game_version"] == 0:  # until the first move, as on the phones
            first.insert(0, word("drawn_starts", language, name=names[drawn]))
    page = max(1, height // ROW - 1)  # body rows under the headline
    timed, late = clock_lines(clock, names, language) if not view["over"] else ([], False)

    def rows_for(width: int) -> list[str]:
        rows = [row for line in [*timed, *first] if line for row in wrap(_bounded(line), width)]
        if scores is not None:
            rows += score_rows(scores, names, width, page)
        return rows + [row for line in lines if line for row in wrap(_bounded(line), width)]

    width = DISPLAY_WIDTH
    rows = rows_for(width)
    if len(rows) > page:  # paged: the rows leave room for the page bar at the right edge
        width = DISPLAY_WIDTH - PAGE_BAR
        rows = rows_for(width)
    marked = tuple(range(len(wrap(_bounded(timed[0]), width)))) if late else ()  # the clock's own rows
    return Screen("status", info.title, tuple(rows), scroll=scroll, die=die, headline=headline, big=True,
                  marked=marked)


CLOCK_RUNNING, CLOCK_STOPPED, CLOCK_LATE = "⏱", "⏸", "⌛"
"""The turn clock's symbols: counting, standing still, past the per-turn target."""


def clock_lines(clock: dict | None, names: list[str], language: str) -> tuple[list[str], bool]:
    """The turn clock on the status screen: each seat waited for with its turn's time
    (``⏱ Aki 0:42``), ``⏸`` while it stands still, ``⌛`` and the words "over the target"
    past the target (those rows are then drawn inverted, the panel's one other colour), and
    while someone paused it, that ``up`` resumes it. Also whether a turn is past its target."""
    if not clock:
        return [], False
    timed = [seat for seat in clock["seats"] if seat["turn"] is not None]
    if not timed:
        return [], False
    late = any(seat["over_target"] for seat in timed)
    symbol = CLOCK_LATE if late else CLOCK_RUNNING if clock["running"] else CLOCK_STOPPED
    faces = "  ".join(f"{names[seat['seat']]} {clock_words(seat['turn'])}" for seat in timed)
    lines = [f"{symbol} {faces}" + (f" {word('clock_over_target', language)}" if late else "")]
    if clock["paused"] or clock["why"] == "question":
        lines.append(word("clock_paused", language))
    return lines, late


def clock_words(seconds: float) -> str:
    """Seconds as a clock reads them: 0:42, 12:05, 1:02:09."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


PAGE_BAR = 3
"""The pixels a status screen's rows leave at the right for its page bar (2 px and a gap:
many glyphs of the font reach the right edge of their cell)."""


def _bounded(line: str) -> str:
    """``line``, or for a line longer than any real one (a name is at most 24 characters) its
    first LONGEST_LINE characters and "…": wrapping 100 000 characters would take minutes."""
    return line if len(line) <= LONGEST_LINE else line[:LONGEST_LINE] + ELLIPSIS


def _listed(info: StatusInput, seats: list[int]) -> str:
    return word("list_separator", info.language).join(info.names[seat] for seat in seats)


def _headline(candidates: list[str], die: bool) -> tuple[str, list[str]]:
    """The first of ``candidates`` (the whole sentence first, shorter ones after) that fits the
    headline's row; when it is not the whole sentence, that goes below, so nothing is ever
    cut. The last candidate is taken as it is."""
    for candidate in candidates[:-1]:
        if len(status_headline_rows(candidate, die)) <= 1:
            return candidate, [] if candidate == candidates[0] else [candidates[0]]
    return candidates[-1], [candidates[0]]


def _awaited(info: StatusInput, die: bool, empty_seat_help: str | None) -> tuple[str, list[str], list[str]]:
    """The headline of a running game: whose input the step needs (``waiting_for``; an older
    server's views have only ``to_act``), an empty seat it waits for and what to do about it,
    or what comes next when nobody is awaited. Then the lines to show before the scores (what
    to do now) and after them (the headline's whole sentence where it had to be shortened)."""
    view = info.view
    waiting = view.get("waiting_for", view["to_act"])
    language = info.language
    empty = [seat for seat in waiting if seat in info.free]
    help_lines = [word(f"empty_seat_{empty_seat_help}", language, seats=_listed(info, empty))] if empty else []
    if len(waiting) == 1:
        name = info.names[waiting[0]]
        if empty:
            return word("seat_empty", language, seat=name), [word(f"empty_seat_{empty_seat_help}_do", language)], []
        seat_turn = word("your_turn", language, name=word("seat", language, number=waiting[0] + 1))
        headline, below = _headline([word("your_turn", language, name=name), name, seat_turn], die)
        return headline, [], below
    if waiting:
        names = _listed(info, waiting)
        headline, below = _headline([f"{word('waiting', language)}: {names}",
                                     word("waiting_count", language, count=len(waiting))], die)
        return headline, help_lines, below
    public = view["public"] if isinstance(view["public"], dict) else {}
    step = public.get("step") or public.get("phase")
    pause = "round_over" if step == "round-end" else "nobody_awaited"
    return word(pause, language), [], [word(f"{pause}_next", language)]


def _result(info: StatusInput) -> tuple[str, list[str], Scores | None, list[str]]:
    """The end: who won as the headline, everyone's final score, the game's own summary,
    then everyone's place."""
    result = info.view["result"] or {}
    language = info.language
    winners = list(result.get("winners") or [])
    first: list[str] = []
    if result.get("lions_win"):
        headline = word("lions_win", language)
    elif winners:
        names = _listed(info, winners)
        headline, first = _headline([word("winner" if len(winners) == 1 else "winners", language, names=names),
                                     names, word("over", language)], False)
    else:
        headline = word("over", language)
    scores = result.get("scores")
    grid = (Scores(word("caption_final", language), [scores.get(str(seat), "-") for seat in range(len(info.names))])
            if isinstance(scores, dict) and scores else None)
    summary = result.get("summary")
    lines = [render_text(summary[language], info.names)] if isinstance(summary, dict) else []
    return headline, first, grid, lines + _ranking_lines(info, with_scores=grid is None)


def _round_line(info: StatusInput, public: dict) -> str:
    step = public.get("step") or public.get("phase")
    round_part = f"{word('round', info.language)} {public['round']}/{public['rounds']} " if "round" in public and "rounds" in public else ""
    return f"{round_part}{step_word(step, info.language)}"


def _last_event(info: StatusInput) -> str:
    log = info.view.get("log") or []
    if not log:
        return ""
    return "→" + render_text(log[-1]["text"][info.language], info.names)


def _ranking_lines(info: StatusInput, with_scores: bool) -> list[str]:
    """Everyone's place from the result (with their score unless the scores' grid shows it);
    where the lions won nobody is placed: each player is listed with their score only."""
    result = info.view["result"] or {}
    scores = result.get("scores") or {}
    if result.get("lions_win"):
        return [f"{name} {scores.get(str(seat), '')}".rstrip() for seat, name in enumerate(info.names)] if with_scores else []
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
        crown = "★" if seat in winners else ""
        score_text = f" {score}" if score is not None and with_scores else ""
        lines.append(f"{crown}{word('place', info.language, place=place)} {info.names[seat]}{score_text}")
    return lines


def _number(value: object) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else float("-inf")


StatusParts = tuple[Scores | None, list[str], tuple[int, bool] | None]
"""What a game's status builder gives: the seats' scores, the other lines, the rolled die."""


def _generic_status(info: StatusInput) -> StatusParts:
    """Any game: its step and its public scores when it has some."""
    public = info.view["public"] if isinstance(info.view["public"], dict) else {}
    scores = public.get("scores")
    if isinstance(scores, dict):
        values = [scores.get(str(seat), "-") for seat in range(len(info.names))]
    elif isinstance(scores, list):
        values = list(scores[: len(info.names)])
    else:
        values = None
    return (Scores(word("caption_scores", info.language), values) if values else None), [_round_line(info, public)], None


def _lion_square(info: StatusInput) -> StatusParts:
    public = info.view["public"]
    scores = Scores(word("caption_cards_taken", info.language), list(public["taken"]))
    return scores, [_round_line(info, public), word("pile", info.language, count=public["pile"])], None


def _meow_oracle(info: StatusInput) -> StatusParts:
    public = info.view["public"]
    return Scores(word("caption_wins", info.language), list(public["wins"])), [_round_line(info, public)], None


def _swap5(info: StatusInput) -> StatusParts:
    public = info.view["public"]
    language = info.language
    scores = Scores(word("caption_points", language), [public["scores"][str(seat)] for seat in range(len(info.names))])
    # SWAP 5 has one step, "turn", which the headline says already.
    lines = [_round_line(info, public)] if public.get("step") != "turn" else []
    owned = public.get("colours") or {}
    for seat, name in enumerate(info.names):
        colours = word("list_separator", language).join(word(f"colour.{c}", language) for c in owned.get(str(seat), ()))
        if colours:
            lines.append(word("colours_of", language, name=name, colours=colours))
    if public.get("final_lap") is not None:
        lines.append(word("final_lap", language))
    return scores, lines, None


def _lion_square_ledger(info: StatusInput) -> StatusParts:
    """The ledger: each herd once the round's entries are revealed (they are secret before)."""
    public = info.view["public"]
    herds = public.get("herds")
    scores = Scores(word("caption_herds", info.language), list(herds)) if herds else None
    return scores, [_round_line(info, public)], None


def _meow_oracle_scorer(info: StatusInput) -> StatusParts:
    return _meow_oracle(info)


def _pig_house(info: StatusInput) -> StatusParts:
    public = info.view["public"]
    language = info.language
    lines = [f"{step_word(public['phase'], language)} {word('turn', language)} {public['turn']}",
             step_word(public["step"], language)]
    die = public.get("die")
    if die:
        lines.insert(0, counted("die_shows_pot" if die["pot"] else "die_shows", die["pigs"], language))
    used = [s for s, spent in enumerate(public["invincibility_used"]) if spent]
    if used:
        lines.append(word("invincibility_used", language, names=_listed(info, used)))
    squares = ", ".join(str(wolf["square"]) for wolf in public["wolves"])
    lines.append(word("wolves_at", language, squares=squares))
    upcoming = [str(chip["card"]["number"]) for chip in public.get("schedule", []) if chip.get("card")]
    if upcoming:
        lines.append(word("next_attacks", language, numbers=", ".join(upcoming)))
    scores = Scores(word("caption_pigs", language), list(public["pigs"]))
    return scores, lines, (die["pigs"], bool(die["pot"])) if die else None


def _score_pad(info: StatusInput) -> StatusParts:
    """The score pad: the totals, the game played and its round, a round being corrected."""
    public = info.view["public"]
    language = info.language
    newest = len(public["rounds"])
    lines = [word("pad_round", language, name=public["name"], number=newest) if public["name"]
             else f"{word('round', language)} {newest}"]
    if public["open"] != newest - 1:
        lines.append(word("pad_correcting", language, number=public["open"] + 1))
    if public["lowest_wins"]:
        lines.append(word("pad_lowest_wins", language))
    return Scores(word("caption_totals", language), list(public["totals"])), lines, None


STATUS_BUILDERS = {
    "lion-square": _lion_square,
    "meow-oracle": _meow_oracle,
    "swap5": _swap5,
    "pig-house": _pig_house,
    "meow-oracle-scorer": _meow_oracle_scorer,
    "lion-square-ledger": _lion_square_ledger,
    "score-pad": _score_pad,
}
"""The dedicated status screens; any other game id gets :func:`_generic_status`."""
