"""A disk that fills up while the table runs: the problem shows at the first failed save,
everywhere, says it once in the log, never shows the data directory, and goes when a save
works again."""

import logging


def test_a_full_disk_shows_at_the_first_refused_save_and_clears_at_the_first_good_one(api, client, table, caplog, full_disk):
    caplog.set_level(logging.INFO)
    assert api.post("/api/game", {"game": "meow-oracle", "players": 2, "seed": 1}).status_code == 200
    version = table.version
    table._store._db = disk = full_disk(table._store._db)
    refused = [api.post("/api/seats/0/join", {"name": "Ann"}) for _ in range(4)]
    data_dir = str(table.data_dir)
    assert [answer.status_code for answer in refused] == [503] * 4
    assert not any(data_dir in answer.get_data(as_text=True) for answer in refused)

    info = client.get("/api/table").json
    assert "cannot save" in info["problem"] and data_dir not in info["problem"]
    assert info["version"] == version + 1, "a new version, so every page and the panel redraw"
    assert client.get("/api/view").json["problem"] == info["problem"]
    page = client.get("/table").get_data(as_text=True)
    assert 'id="problem" role="alert">' in page and data_dir not in page
    said = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(said) == 1 and data_dir in said[0].getMessage(), "said once, in the log only"

    disk.full = False
    assert api.post("/api/seats/0/join", {"name": "Ann"}).status_code == 200
    info = client.get("/api/table").json
    assert info["problem"] is None and info["version"] == version + 2
    assert 'id="problem" role="alert" hidden>' in client.get("/table").get_data(as_text=True)
