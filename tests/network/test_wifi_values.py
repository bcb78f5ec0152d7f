"""The companion's own network values (issue 23 point 14): control and invisible characters
are refused in the SSID and the password; the Wi-Fi QR code, as the pages and the panel draw
it, reads back exactly (zbarimg, as a phone's camera) for names that need escaping and for
names that are not ASCII; the one mix some readers garble is warned about by config check."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
import segno

from companion.cli import main
from companion.config import ConfigError, load_config
from companion.network import wifi_qr_caveat, wifi_qr_payload

ZBARIMG = shutil.which("zbarimg")
needs_zbarimg = pytest.mark.skipif(ZBARIMG is None, reason="zbarimg is missing: install the Debian package zbar-tools")


def config_with(tmp_path, ssid: str, password: str = "abcdefghjk"):
    path = tmp_path / "config.toml"
    quoted = lambda text: '"' + "".join(f"\\u{ord(c):04X}" if ord(c) < 0x20 or c in '"\\' or 0x7F <= ord(c) <= 0x9F
                                        else c for c in text) + '"'
    path.write_text(f"[network]\nssid = {quoted(ssid)}\npassword = {quoted(password)}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("ssid, reason", [
    ("Tabletop\x00", "a control character (U+0000)"),
    ("Table\ntop", "a control character (U+000A)"),
    ("Table\ttop", "a control character (U+0009)"),
    ("Table\x1b[31mtop", "a control character (U+001B)"),
    ("Table\x85top", "a control character (U+0085)"),
    ("\u200fTabletop", "an invisible formatting character (U+200F)"),
    ("Table\u202etop", "an invisible formatting character (U+202E)"),
    ("Table\u200btop", "an invisible formatting character (U+200B)"),
    ("Table\u2028top", "a line separator (U+2028)"),
    ("Table\ue000top", "a private-use character (U+E000)"),
    (" Tabletop", "may not begin or end with a space"),
])
def test_an_ssid_phones_cannot_show_or_type_back_is_refused(tmp_path, ssid, reason):
    with pytest.raises(ConfigError) as refused:
        load_config(config_with(tmp_path, ssid))
    assert "network.ssid" in str(refused.value) and reason in str(refused.value)


@pytest.mark.parametrize("password", ["abcdefghjk\x00", "abcde\nfghjk", "abcde\tfghjk", "abcde\x1b[0mfghjk", "abcdeé-fghjk"])
def test_a_password_with_a_control_or_non_ascii_character_is_refused(tmp_path, password):
    with pytest.raises(ConfigError) as refused:
        load_config(config_with(tmp_path, "Tabletop", password))
    assert "network.password" in str(refused.value) and "printable ASCII" in str(refused.value)


def test_config_check_refuses_a_nul_in_the_ssid(tmp_path, capsys):
    assert main(["config", "check", str(config_with(tmp_path, "Table\x00top"))]) == 2
    assert "control character" in capsys.readouterr().err


READABLE = [  # (ssid, password): every one decodes exactly and passes config check without a warning
    ("Tabletop-AB12", "abcdefghjk"),
    ('Tea; "Games", 3:30\\pm', 'a;b,c"d:e\\f-long'),  # ASCII: every escaped character
    ("こぶたハウス", "abcdefghjk"),
    ("らいおんスクエア卓", "k7mq3pwx9r2t"),
    ("ﾃｰﾌﾞﾙ", "abcdefghjk"),  # half-width katakana: read as kanji without ECI
    ("Café Ünïcode", "abcdefghjk"),
    ("🐷 Pig House", "abcdefghjk"),
    ("עברית", "abcdefghjk"),  # right-to-left letters (not marks) are fine
]


def panel_png(payload: str) -> bytes:
    """The Wi-Fi code as the OLED draws it, scaled up as a camera sees the glass."""
    from hardware.screens import Screen, render

    image = render(Screen(kind="idle", title="1. Join Wi-Fi", qr=payload), 128, 64).convert("L").resize((512, 256), 0)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def page_png(payload: str) -> bytes:
    """The Wi-Fi code as the pages make it (the same segno options, as PNG)."""
    from web.pages import QR_OPTIONS

    buffer = io.BytesIO()
    segno.make(payload, **QR_OPTIONS).save(buffer, kind="png", scale=6, border=4)
    return buffer.getvalue()


def decode(image_png: bytes) -> str:
    result = subprocess.run([ZBARIMG, "--raw", "-q", "-"], input=image_png, capture_output=True, timeout=30)
    return result.stdout.decode("utf-8", "replace").removesuffix("\n")


@needs_zbarimg
@pytest.mark.parametrize("ssid, password", READABLE)
@pytest.mark.parametrize("drawn", [page_png, panel_png], ids=["page", "panel"])
def test_the_wifi_code_reads_back_exactly(tmp_path, capsys, ssid, password, drawn):
    load_config(config_with(tmp_path, ssid, password))  # accepted
    assert main(["config", "check", str(config_with(tmp_path, ssid, password))]) == 0
    assert "warning" not in capsys.readouterr().out
    payload = wifi_qr_payload(ssid, password)
    assert decode(drawn(payload)) == payload


@needs_zbarimg
@pytest.mark.parametrize("ssid, password", [("こぶた;ハウス", "abcdefghjk"), ("卓:1,2", "abcdefghjk"),
                                            ("テーブル", "pass;word-12"), ("é\\x", "abcdefghjk")])
def test_non_ascii_with_escapes_is_warned_about_as_some_readers_garble_it(tmp_path, capsys, ssid, password):
    assert wifi_qr_caveat(ssid, password)
    assert main(["config", "check", str(config_with(tmp_path, ssid, password))]) == 0
    assert "warning: a name that is not plain ASCII" in capsys.readouterr().out
    assert decode(page_png(wifi_qr_payload(ssid, password))) != wifi_qr_payload(ssid, password)  # why it warns
