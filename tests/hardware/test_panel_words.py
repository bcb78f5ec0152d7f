"""Every word the panel shows is in its one word list (hardware/words.py), in English and in
Japanese, and no code of the panel spells a word out inline."""

from __future__ import annotations

import ast
import re
import string
import sys
from pathlib import Path

import pytest

from hardware import actions
from hardware.words import WORDS

HARDWARE = Path(actions.__file__).resolve().parent
PANEL_MODULES = ("panel.py", "pages.py", "menus.py", "commands.py", "screens.py", "actions.py")
"""The modules that build what the panel shows (the doctor and the buttons talk to a terminal
and the web, not to the glass)."""

WORD_TAKERS = {"word": 0, "counted": 0, "Entry": 0, "Menu": 0, "ActionKind": 0, "refused": 1}
"""Calls whose argument at this position is a key of the word list."""

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("key", sorted(WORDS))
def test_every_word_is_there_in_both_languages_with_the_same_blanks(key):
    entry = WORDS[key]
    assert set(entry) == {"en", "ja"}, key
    english = entry["en"] if isinstance(entry["en"], tuple) else (entry["en"],)
    assert len(english) in (1, 2) and all(english) and entry["ja"], key  # counted words: one, many
    assert isinstance(entry["ja"], str), key
    for form in english:
        assert fields(form) == fields(entry["ja"]), f"{key}: {form!r} and {entry['ja']!r} fill different blanks"


def keys_used() -> list[tuple[str, int, ast.expr]]:
    """Every word key the panel's modules pass to the word list: ``(module, line, key)``."""
    used = []
    for name in PANEL_MODULES:
        tree = ast.parse((HARDWARE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                position = WORD_TAKERS.get(callee)
                if position is not None and len(node.args) > position:
                    used.append((name, node.lineno, node.args[position]))
    return used


def test_every_word_key_the_panel_uses_is_in_the_list():
    used = keys_used()
    assert len(used) > 100  # the check reads the calls it means to
    missing = []
    for module, line, key in used:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            if key.value not in WORDS:
                missing.append(f"{module}:{line} {key.value!r}")
        elif isinstance(key, ast.JoinedStr):  # f"step.{step}", f"bot_{level}": some key must fit
            pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else ".+" for part in key.values)
            if not any(re.fullmatch(pattern, known) for known in WORDS):
                missing.append(f"{module}:{line} {ast.unparse(key)}")
    assert not missing, missing


def chooses_by_language(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and any(isinstance(c, ast.Constant) and c.value in ("en", "ja")
                                                 for c in test.comparators)


def is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def test_no_word_is_written_inline():
    """No ``_t("…", "…")`` pair, no Japanese text outside the word list: a word written
    beside the code would be missed by the translation and by the checks above."""
    inline = []
    for name in PANEL_MODULES:
        source = (HARDWARE / name).read_text(encoding="utf-8")
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and JAPANESE.search(node.value):
                inline.append(f"{name}:{node.lineno} {node.value!r}")
            if isinstance(node, ast.FunctionDef) and node.name == "_t":
                inline.append(f"{name}:{node.lineno} def _t")
            if isinstance(node, ast.IfExp) and chooses_by_language(node.test) and \
                    any(is_text(side) for side in (node.body, node.orelse)):
                inline.append(f"{name}:{node.lineno} {ast.unparse(node)}")  # "…" if language == "ja" else "…"
    assert not inline, inline


def test_the_check_finds_an_inline_pair(tmp_path, monkeypatch):
    """The check above fails on the very pattern it replaces."""
    (tmp_path / "panel.py").write_text('def f(pair):\n    return pair("Undo", "一手戻す")\n', encoding="utf-8")
    (tmp_path / "pages.py").write_text('def g(language):\n    return "Yes" if language == "en" else "Hai"\n',
                                       encoding="utf-8")
    for name in PANEL_MODULES[2:]:
        (tmp_path / name).write_text("", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "HARDWARE", tmp_path)
    with pytest.raises(AssertionError) as failure:
        test_no_word_is_written_inline()
    assert "一手戻す" in str(failure.value) and "'Hai'" in str(failure.value)
