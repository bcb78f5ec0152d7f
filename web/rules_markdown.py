"""The rules pages' Markdown (``web/rules.py``): Python-Markdown with ``attr_list``,
``tables`` and our badges. A module of its own so that the service imports Python-Markdown
only when a rules page is first rendered, not at start-up."""

from __future__ import annotations

import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

def render(text: str, labels: dict[str, str]) -> tuple[str, list[tuple[str, str]]]:
    """``text`` as HTML, and the (anchor id, heading) of each ``##`` section; ``labels`` are
    the badges' words by the class of the blocks that get one (``web.rules.BADGES``)."""
    badges = _BadgeExtension(labels)
    html = markdown.markdown(text, extensions=["attr_list", "tables", badges])
    return html, badges.processor.sections


class _Badges(Treeprocessor):
    """Open every ``.assumed``/``.reading`` block with its badge; list the ``h2`` sections."""

    def __init__(self, md, labels: dict[str, str]):
        super().__init__(md)
        self.labels = labels
        self.sections: list[tuple[str, str]] = []

    def run(self, root):
        for element in root.iter():
            if element.tag in ("h2", "h3") and not element.get("id"):
                # A hint links to a section by its id: an id made up from the words would
                # change with the wording (and be empty in Japanese).
                raise ValueError(f"heading {''.join(element.itertext())!r} has no {{#id}}")
            if element.tag == "h2":
                self.sections.append((element.get("id"), "".join(element.itertext())))
            kind = next((c for c in element.get("class", "").split() if c in self.labels), None)
            if kind is not None:
                badge = etree.Element("strong", {"class": f"badge rules-badge {kind}-badge"})
                badge.text = self.labels[kind]
                badge.tail = " " + (element.text or "")
                element.text = None
                element.insert(0, badge)


class _BadgeExtension(Extension):
    def __init__(self, labels: dict[str, str]):
        super().__init__()
        self.labels = labels
        self.processor: _Badges | None = None

    def extendMarkdown(self, md):
        self.processor = _Badges(md, self.labels)
        # After attr_list (priority 8) has put the ids and classes on the elements.
        md.treeprocessors.register(self.processor, "rules-badges", 5)
