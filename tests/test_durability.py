"""Power loss at any moment: kill a writer with SIGKILL again and again, then check
that the database is intact and that every action it acknowledged is still there."""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from companion.store import Store
from companion.table import Table

WRITER = textwrap.dedent(
    """
    import json, random, sys
    from companion.table import Table

    table = Table(sys.argv[1])
    if table.game_id is None or table.view(None)["over"]:
        table.start_game("lion-square", 4, seed=int(sys.argv[2]))
    chooser = random.Random(int(sys.argv[2]))
    while True:
        public = table.view(None)
        if public["over"]:
            table.start_game("lion-square", 4, seed=chooser.randrange(1000))
            continue
        seat = chooser.choice(public["to_act"])
        view = table.view(seat)
        action = chooser.choice(view["actions"])
        table.act(seat, action, view["version"])
        # Only now is the action acknowledged, exactly as the web answers a phone.
        print(json.dumps({"version": table.version, "seat": seat, "action": action}), flush=True)
    """
)


def test_sigkill_in_a_loop_loses_nothing_acknowledged(tmp_path):
    chooser = random.Random(7)
    acknowledged = []
    for round_number in range(8):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), str(round_number)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        )
        for _ in range(chooser.randrange(1, 40)):
            line = writer.stdout.readline()
            assert line, "the writer died on its own"
            acknowledged.append(json.loads(line))
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        writer.stdout.close()

        table = Table(tmp_path)
        assert table.version >= acknowledged[-1]["version"]
        table.close()
        store = Store(tmp_path)
        assert store.integrity_check() == "ok"
        store.close()

    store = Store(tmp_path)
    logged = []
    for record_id in range(1, 100):
        if store.game(record_id) is None:
            break
        logged += [(entry["seat"], entry["action"]) for entry in store.action_log(record_id)]
    store.close()
    wanted = [(entry["seat"], entry["action"]) for entry in acknowledged]
    position = 0
    for item in logged:  # every acknowledged action, in order (unacknowledged ones may sit between)
        if position < len(wanted) and item == wanted[position]:
            position += 1
    assert position == len(wanted), f"acknowledged action {position} of {len(wanted)} is missing"
