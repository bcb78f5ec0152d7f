"""What start-up leaves for later (issue 32, point 4): the service's processor time until READY
is measured in benchmarks/startup.py; this test keeps out of start-up what its figures showed
start-up does not need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DEFERRED = ("markdown",)
"""Python-Markdown: only the rules pages need it (``web/rules_markdown.py``)."""

PROGRAM = """
import sys, tempfile
from companion.config import load_config
from companion.serve import build_app
from companion.table import Table

table = Table(tempfile.mkdtemp())
build_app(table, load_config(None, {"hardware": "mock"}), "http://127.0.0.1:8000/")
print(" ".join(name for name in sys.argv[1:] if name in sys.modules))
table.close()
"""


def test_the_web_app_is_built_without_what_only_later_pages_need():
    loaded = subprocess.run([sys.executable, "-c", PROGRAM, *DEFERRED], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, check=True).stdout.split()
    assert loaded == []


def test_the_rules_pages_still_render_their_markdown():
    from web.rules import RULEBOOK, rules_text

    text = rules_text(RULEBOOK / "swap5.en.md", "en")
    assert "<h2" in text.html and text.sections
