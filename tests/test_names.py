"""Player names: one line of visible characters, any script, emoji included; nothing that
breaks a line, hides, or has nothing to stand on (``companion.table.clean_name``)."""

from __future__ import annotations

import unicodedata

import pytest

from companion.table import NAME_MAX, Table, TableError, clean_name

#: Unicode 15.1 DerivedCoreProperties.txt, Default_Ignorable_Code_Point: the test's own copy,
#: so that a gap in clean_name's reading of the property shows.
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
VARIATION_SELECTORS = {*range(0x180B, 0x180E), 0x180F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}


@pytest.mark.parametrize("typed,kept", [
    ("  Ann  ", "Ann"),
    ("山田\u3000太郎", "山田 太郎"),  # a Japanese keyboard's space becomes a plain one
    ("\u3000ねこ\u3000", "ねこ"),
    ("Ann\u00a0Lee", "Ann Lee"),
    ("김민준", "김민준"),
    ("Zoe\u0308", "Zoë"),  # NFC
    ("a\u0301\u0323", unicodedata.normalize("NFC", "a\u0301\u0323")),
    ("שלום", "שלום"),
    ("葛\U000e0100", "葛\U000e0100"),  # an ideographic variation sequence
    ("❤\ufe0f", "❤\ufe0f"),
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # keycap one
    ("🇯🇵", "🇯🇵"),
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
    ("👩🏽\u200d💻", "👩🏽\u200d💻"),
    ("🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"),
    ("x" * NAME_MAX, "x" * NAME_MAX),
])
def test_names_are_trimmed_and_kept(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize("name,reason", [
    ("Ann\u2029Bob", "one line"),
    ("Ann\u2028Bob", "one line"),
    ("a\nb", "one line"),
    ("a\x85b", "one line"),
    ("a\x00b", "one line"),
    ("\u3164", "invisible"),
    ("Ann\u3164", "invisible"),
    ("\u115f\u1160", "invisible"),
    ("\uffa0", "invisible"),
    ("\u2800", "invisible"),
    ("a\u034fb", "invisible"),
    ("a\u200bb", "invisible"),
    ("a\u200db", "invisible"),  # a joiner between letters joins nothing
    ("😀\u200d", "invisible"),
    ("\u200d😀", "invisible"),
    ("\u202eevil", "invisible"),
    ("🏴\U000e0067\U000e0062\U000e007f", "invisible"),  # tag characters
    ("\u0301", "combining mark"),
    ("Ann \u0301", "combining mark"),
    ("\ufe0f", "combining mark"),
    ("\u0378", "unassigned"),
    ("\ue000", "private-use"),
    ("a\ud800", "broken"),
    ("\u3000\u3000", "enter a name"),
    ("\u2029", "enter a name"),
    ("x" * (NAME_MAX + 1), "at most"),
    (None, "text"),
])
def test_names_that_break_or_hide_are_refused_in_plain_words(name, reason):
    with pytest.raises(TableError, match=reason):
        clean_name(name)


def test_the_message_names_the_character():
    with pytest.raises(TableError) as refused:
        clean_name("Ann\u3164")
    assert str(refused.value) == "a name cannot contain invisible characters (U+3164 HANGUL FILLER)"


def test_every_default_ignorable_character_is_refused_unless_it_selects_a_variant():
    for first, last in DEFAULT_IGNORABLE:
        for code in range(first, last + 1):
            char = chr(code)
            if code in VARIATION_SELECTORS:
                assert clean_name(f"a{char}b") == f"a{char}b"
                with pytest.raises(TableError):
                    clean_name(f"{char}b")  # nothing to select a variant of
            else:
                with pytest.raises(TableError):
                    clean_name(f"a{char}b")


def test_every_whitespace_but_the_plain_space_is_replaced_or_refused():
    for code in range(0x110000):
        char = chr(code)
        if char.isspace():
            try:
                kept = clean_name(f"a{char}b")
            except TableError:
                continue
            assert kept == "a b", hex(code)


def test_a_refused_name_changes_nothing_at_the_table(tmp_path):
    table = Table(tmp_path / "data")
    try:
        table.start_game("meow-oracle", 2, seed=1)
        version = table.version
        with pytest.raises(TableError, match="one line"):
            table.join(0, "Ann\u2029Bob")
        assert table.version == version and table.names() == [None, None]
    finally:
        table.close()
