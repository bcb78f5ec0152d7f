"""The simulated SSD1306's glass as a picture, and its comparison with the panel's PNG.

The guest's ssd1306-sim module (image/hardware/ssd1306-sim) shows what the glass would in the
sysfs attribute ``/sys/bus/i2c/devices/i2c-<bus>/frame``: 128 x 64 pixels, one bit each, row by
row from the top, the leftmost pixel in each byte's most significant bit, 1 = lit. That is the
layout of Pillow's mode "1", so the bytes become an image as they are.

``/api/display.png`` is the panel's frame before luma's rotation, in mode "L" (0 dark, 255
lit), at the display's own size, not scaled. With ``rotation = 0`` (the check's), what luma
sends is that frame unrotated, so the two compare pixel for pixel.

As a command, it turns a frame read from the guest into a PNG:

    python3 tests/system/oled.py FRAME.bin OUT.png
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image, ImageChops

WIDTH, HEIGHT = 128, 64
FRAME_BYTES = WIDTH * HEIGHT // 8


def glass(frame: bytes) -> Image.Image:
    """The simulated display's ``frame`` bytes as a mode "1" image (lit = white)."""
    if len(frame) != FRAME_BYTES:
        raise ValueError(f"an SSD1306 frame is {FRAME_BYTES} bytes ({WIDTH} x {HEIGHT} bits), got {len(frame)}")
    return Image.frombytes("1", (WIDTH, HEIGHT), frame)


def panel_frame(png: bytes) -> Image.Image:
    """``/api/display.png`` as a mode "1" image: any pixel brighter than black is lit."""
    image = Image.open(io.BytesIO(png))
    if image.size != (WIDTH, HEIGHT):
        raise ValueError(f"/api/display.png is {image.size[0]} x {image.size[1]}, not the display's {WIDTH} x {HEIGHT}")
    return image.convert("L").point(lambda level: 255 if level else 0).convert("1")


def differing_pixels(a: Image.Image, b: Image.Image) -> list[tuple[int, int]]:
    """The (x, y) of every pixel lit in one image and dark in the other."""
    difference = ImageChops.logical_xor(a.convert("1"), b.convert("1"))
    box = difference.getbbox()
    if box is None:
        return []
    pixels = difference.load()
    return [(x, y) for y in range(box[1], box[3]) for x in range(box[0], box[2]) if pixels[x, y]]


def save_comparison(folder: Path, name: str, sim: Image.Image, panel: Image.Image) -> Path:
    """The two pictures side by side at 4x with the differing pixels in red, for a person."""
    scale = 4
    sheet = Image.new("RGB", (WIDTH * scale * 3 + 2 * scale, HEIGHT * scale), "grey")
    difference = ImageChops.logical_xor(sim.convert("1"), panel.convert("1"))
    red = Image.new("RGB", (WIDTH, HEIGHT), "red")
    marked = Image.composite(red, panel.convert("RGB"), difference.convert("L"))
    for index, image in enumerate((sim.convert("RGB"), panel.convert("RGB"), marked)):
        sheet.paste(image.resize((WIDTH * scale, HEIGHT * scale), Image.NEAREST), (index * (WIDTH + 1) * scale, 0))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    sheet.save(path)
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: oled.py FRAME.bin OUT.png  (FRAME.bin: the guest's /sys/bus/i2c/devices/i2c-1/frame)",
              file=sys.stderr)
        return 2
    glass(Path(argv[0]).read_bytes()).save(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
