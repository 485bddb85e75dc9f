"""A spooled ``store append`` claims its table as a plain one does (issue #32): a second
writer is refused at once, before it writes anything, whether the other writer holds the
table at the store or through the same outbox while the server is away."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardref.cli import main as cli
from cardref.recorder import TableBusy, open_store
from cardref.recorder.spool import Outbox, SpoolingRecorder

DEAL = '{"type":"deal","game":"gouji-shandong","seats":6,"leader":0}'
PLAY = '{"type":"play","seat":0,"cards":["3S","3H"],"t":1.0}'
DOWN = "postgresql://cardref:cardref@127.0.0.1:1/none"  # nothing listens on port 1


pytestmark = pytest.mark.usefixtures("never_the_users_store")


def _log(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "deal.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _refused_clearly(err: str) -> None:
    assert "Traceback" not in err, err
    for word in ("'T'", "another writer", "nothing was written"):
        assert word in err, err


def _stored(url: str) -> list[str]:
    s = open_store(url)
    try:
        return s.lines("T")
    finally:
        s.close()


def _waiting(box: str) -> int:
    outbox = Outbox(box)
    try:
        return outbox.count()
    finally:
        outbox.close()


def test_a_table_claimed_at_the_store_refuses_a_spooled_writer(store_url, tmp_path, capsys):
    box = str(tmp_path / "outbox.db")
    assert cli(["store", "append", "--db", store_url, "--table", "T", _log(tmp_path, DEAL)]) == 0
    before = _stored(store_url)
    holder = open_store(store_url)
    try:
        with holder.claim_table("T"):
            capsys.readouterr()
            rc = cli(["store", "append", "--db", store_url, "--table", "T", "--spool", box,
                      _log(tmp_path, PLAY)])
            _refused_clearly(capsys.readouterr().err)
            assert rc == 2
    finally:
        holder.close()
    assert _stored(store_url) == before
    assert _waiting(box) == 0
    # the holder gone, the same command records the play
    assert cli(["store", "append", "--db", store_url, "--table", "T", "--spool", box, _log(tmp_path, PLAY)]) == 0
    assert len(_stored(store_url)) == len(before) + 1


def test_the_outbox_claim_holds_while_the_server_is_away(tmp_path, capsys):
    box = str(tmp_path / "outbox.db")
    first = SpoolingRecorder(lambda: open_store(DOWN), box, retry_s=60)
    try:
        with first.claim("T"):
            first.record("T", DEAL)
            capsys.readouterr()
            rc = cli(["store", "append", "--db", DOWN, "--table", "T", "--spool", box, _log(tmp_path, PLAY)])
            _refused_clearly(capsys.readouterr().err)
            assert rc == 2
            assert _waiting(box) == 1  # the holder's line alone
            with pytest.raises(TableBusy):  # the same writer may not claim twice
                with first.claim("T"):
                    pass
        with first.claim("U"):  # another table through the same outbox is free
            pass
    finally:
        first.close()
    capsys.readouterr()
    rc = cli(["store", "append", "--db", DOWN, "--table", "T", "--spool", box, _log(tmp_path, PLAY)])
    assert "1 went through the outbox, 2 still waiting" in capsys.readouterr().err
    assert rc == 3  # recorded, but only in the outbox
    assert _waiting(box) == 2
