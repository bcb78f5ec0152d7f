"""Benchmark: an import's peak memory above the idle process, by file size and shape (issue #33,
point 11: "any import, refused or accepted, stays within 100 MB above the idle service").

    python benchmarks/import_memory.py [--sizes 1,16,64] [--shapes deep,string,...]

Each file is imported by ``companion.records.backup.import_file`` (what ``companion import``
runs) in a fresh process that has loaded the companion and the web app (``web.create_app`` on
a table) and imported an empty file once: its resident memory then is "idle". The peak
(``VmHWM`` of ``/proc/self/status``, reset by writing 5 to ``/proc/self/clear_refs`` after
idling) minus idle is printed, with the time taken and what the import answered.

The shapes, each a file of about the size given (MB):

- ``deep``: one play nested as deep as the file lets (``[[[[...]]]]``);
- ``string``: one play with a name of the whole file's length;
- ``array``: one play holding a list of as many numbers as fit;
- ``objects``: one play holding a list of empty objects (the costliest shape per byte);
- ``beside``: a list of numbers beside the plays (``"exported_at": [1, 1, ...]``);
- ``small``: as many empty objects as fit, each a play (all read; the first is refused);
- ``plays``: real plays (of one game of each kind, exported, copied with other start times):
  accepted, each replayed by its engine and written. The slowest (the replays): a 64 MB file
  takes minutes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEAD = '{"format": "tabletop-companion-plays", "version": 1, "exported_at": 1, '
GOAL_MB = 100


def _status(field: str) -> float:
    """A field of /proc/self/status in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def write_file(path: Path, shape: str, size: int, plays_dir: Path) -> None:
    """A file of about ``size`` bytes of ``shape``, written piece by piece."""
    with path.open("w", encoding="utf-8") as out:
        def repeat(piece: str, count: int) -> None:
            block = piece * 10_000
            for _ in range(count // 10_000):
                out.write(block)
            out.write(piece * (count % 10_000))

        if shape == "deep":
            out.write(HEAD + '"plays": [')
            repeat("[", size // 2)
            repeat("]", size // 2)
            out.write("]}")
        elif shape == "string":
            out.write(HEAD + '"plays": [{"game": "')
            repeat("x", size)
            out.write('"}]}')
        elif shape in ("array", "objects"):
            out.write(HEAD + '"plays": [[')
            piece = "1," if shape == "array" else "{},"
            repeat(piece, size // len(piece))
            out.write("1]]}" if shape == "array" else "{}]]}")
        elif shape == "beside":
            out.write('{"format": "tabletop-companion-plays", "version": 1, "exported_at": [')
            repeat("1,", size // 2)
            out.write('1], "plays": []}')
        elif shape == "small":
            out.write(HEAD + '"plays": [')
            repeat("{},", size // 3)
            out.write("{}]}")
        elif shape == "plays":
            out.write(HEAD + '"plays": [')
            _write_real_plays(out, size, plays_dir)
            out.write("]}")
        else:
            raise ValueError(f"unknown shape {shape}")


def _write_real_plays(out, size: int, plays_dir: Path) -> None:
    from companion.records.backup import export_plays
    from records import play_seed_games  # benchmarks/records.py: one game of each kind, played through the table

    if not any(plays_dir.iterdir()):
        play_seed_games(plays_dir)
    originals = export_plays(plays_dir)["plays"]
    written, copy = 0, 0
    while True:
        original = originals[copy % len(originals)]
        shift = copy * 3600
        play = dict(original, id=copy + 1, started_at=original["started_at"] + shift,
                    ended_at=original["ended_at"] and original["ended_at"] + shift)
        text = ("," if copy else "") + json.dumps(play, ensure_ascii=False)
        if written + len(text.encode()) > size:
            return
        out.write(text)
        written += len(text.encode())
        copy += 1


def measure_one(path: Path, data: Path) -> dict:
    """In this process: idle memory, then one import of ``path``; the figures as a dict."""
    from companion.records.backup import BackupError, import_file
    from companion.table import Table
    from web import create_app

    table = Table(data / "table")
    create_app(table)
    empty = data / "empty.json"
    empty.write_text(HEAD + '"plays": []}', encoding="utf-8")
    import_file(data / "table", empty)
    Path("/proc/self/clear_refs").write_text("5")
    idle = _status("VmRSS")
    began = time.perf_counter()
    try:
        added, known = import_file(data / "table", path)
        answer = f"accepted: {added} added, {known} there"
    except BackupError as error:
        answer = "refused: " + str(error).replace(str(path), "FILE")[:110]
    seconds = time.perf_counter() - began
    return {"idle_mb": idle, "peak_above_idle_mb": _status("VmHWM") - idle, "seconds": seconds, "answer": answer}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,16,64", help="file sizes in MB, comma-separated")
    parser.add_argument("--shapes", default="deep,string,array,objects,beside,small,plays")
    parser.add_argument("--one", nargs=2, metavar=("FILE", "DATA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(Path(args.one[0]), Path(args.one[1]))))
        return 0

    worst = 0.0
    print("| shape | file | peak above idle | idle | time | answer |\n| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        (scratch / "seeds").mkdir()
        for shape in args.shapes.split(","):
            for size_mb in (float(size) for size in args.sizes.split(",")):
                path = scratch / f"{shape}.json"
                write_file(path, shape, int(size_mb * 2**20) - 4096, scratch / "seeds")  # within MAX_FILE_BYTES
                data = Path(tempfile.mkdtemp(dir=scratch))
                run = subprocess.run([sys.executable, __file__, "--one", str(path), str(data)],
                                     capture_output=True, text=True, cwd=ROOT / "benchmarks")
                if run.returncode != 0:
                    print(run.stderr, file=sys.stderr)
                    return 1
                figures = json.loads(run.stdout.splitlines()[-1])
                worst = max(worst, figures["peak_above_idle_mb"])
                print(f"| {shape} | {path.stat().st_size / 2**20:.2f} MB | {figures['peak_above_idle_mb']:.1f} MB | "
                      f"{figures['idle_mb']:.0f} MB | {figures['seconds']:.1f} s | {figures['answer']} |", flush=True)
                path.unlink()
    print(f"worst peak above idle: {worst:.1f} MB (goal: under {GOAL_MB} MB)")
    return 0 if worst < GOAL_MB else 1


if __name__ == "__main__":
    sys.exit(main())
