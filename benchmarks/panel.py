"""Panel benchmark: time to render one frame, to push it to the (dummy) display, and the
latency from a button press (a mock pin edge) to the new frame; the panel's stop; cutting a
huge text to the glass's width (tests/hardware/test_panel_text.py checks that it is cut).

    python benchmarks/panel.py [--frames 300] [--presses 100]

Rendering is what the Pi's CPU does per frame (target: under 5 ms); a real I2C push of
128 × 64 pixels adds about 23 ms at 400 kHz, which no code can shorten.
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import sys
import tempfile
import time

from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.config import ButtonsConfig
from companion.table import Table
from hardware import fonts
from hardware.buttons import Buttons
from hardware.display import Display
from hardware.panel import Panel
from hardware.screens import render, status_screen


def milliseconds(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--presses", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        table = Table(folder)
        table.start_game("pig-house", 4, seed=1)
        chooser = random.Random(1)
        device = dummy(mode="1")
        render_times, push_times = [], []
        for _ in range(args.frames):  # a status screen per state of a pig-house game
            if table.public()["game"]["over"]:
                table.start_game("pig-house", 4, seed=chooser.randrange(1000))
            seat = chooser.choice(table.public()["view"]["to_act"])
            table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
            info = table.public()
            started = time.perf_counter()
            image = render(status_screen(info, "en"), 128, 64)
            rendered = time.perf_counter()
            device.display(image)
            push_times.append(time.perf_counter() - rendered)
            render_times.append(rendered - started)
        print(f"render one frame (pig-house status): {milliseconds(render_times)}")
        print(f"push to luma's dummy device:          {milliseconds(push_times)}")

        events: queue.Queue = queue.Queue()
        pins = MockFactory()
        config = ButtonsConfig(bounce_seconds=0)
        panel = Panel(table, Display(lambda: dummy(mode="1")), Buttons(config, pins, events), events, frame_seconds=0)
        panel.start()
        panel.settle()
        panel.press("ok")  # open the game's menu: every "down" then moves the highlight
        panel.settle()
        down = pins.pin(config.pins["down"])
        latencies = []
        for _ in range(args.presses):
            frame = panel.frame_number
            started = time.perf_counter()
            down.drive_low()
            panel.wait_frame(frame, timeout=5)
            latencies.append(time.perf_counter() - started)
            down.drive_high()
            panel.settle()
        started = time.perf_counter()
        panel.stop()
        stop_seconds = time.perf_counter() - started
        print(f"button press to new frame (no rate limit): {milliseconds(latencies)}")
        print(f"panel's own draw (build+render+push):      {milliseconds(panel.draw_seconds)}")
        print(f"stop (the Stopped screen on the glass):    {stop_seconds * 1000:.1f} ms")
        table.close()
    huge = []
    for text in ("W" * 200_000, "a" + "\u0301" * 100_000):  # a name's worst: one wide glyph, or marks on one
        started = time.perf_counter()
        fonts.fit(text, 128)
        huge.append(time.perf_counter() - started)
    print(f"fit a 200,000-character text to 128 px:    {', '.join(f'{t * 1000:.2f}' for t in huge)} ms "
          "(wide glyphs, combining marks; once asserted under 500 ms together)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
