"""`cards download` over real HTTP against a local server: listing, headers, 429, resume, bad files."""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtgdice.cards import RetryPolicy, download_oracle_cards, import_bulk, search
from mtgdice.cards.index import index_meta, read_records
from mtgdice.cli.cards import cards_group as cards_app
from mtgdice.errors import InputError

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ORACLE = FIXTURES / "oracle-cards.json"
ALL_CARDS = FIXTURES / "all-cards.json"
FILE_PATH = "/files/oracle-cards-20250101100000.json"
ETAG = '"v1"'
FAST = RetryPolicy(max_retries=3, max_wait=0.05)


@dataclass
class Scenario:
    """What the fake Scryfall serves, and what it was asked."""

    body: bytes = field(default_factory=ORACLE.read_bytes)  # the bytes on the wire
    encoding: str = "identity"
    listed_size: int | None = None  # `size` in the listing; default: the JSON's real size
    listing_429: int = 0
    file_429: int = 0
    retry_after: str | None = "1"
    cut_first_at: int | None = None  # close the connection after this many body bytes, once
    ranges: bool = True
    listing_status: int = 200
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def file_requests(self) -> list[dict[str, str]]:
        return [headers for path, headers in self.requests if path == FILE_PATH]


class FakeScryfall(ThreadingHTTPServer):
    daemon_threads = True
    scenario: Scenario

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: FakeScryfall

    def log_message(self, format: str, *args: object) -> None:
        pass

    def reply(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def too_many(self) -> None:
        headers = {"Retry-After": self.server.scenario.retry_after} if self.server.scenario.retry_after else {}
        self.reply(429, b'{"object": "error", "status": 429}', headers)

    def do_GET(self) -> None:  # noqa: N802 - the http.server protocol
        scenario = self.server.scenario
        scenario.requests.append((self.path, {name.lower(): value for name, value in self.headers.items()}))
        if self.path == "/bulk-data":
            self.listing()
        elif self.path == FILE_PATH:
            self.file()
        else:
            self.reply(404, b"{}", {})

    def listing(self) -> None:
        scenario = self.server.scenario
        if scenario.listing_429:
            scenario.listing_429 -= 1
            return self.too_many()
        size = scenario.listed_size
        if size is None:
            size = len(gzip.decompress(scenario.body)) if scenario.encoding == "gzip" else len(scenario.body)
        entry = {
            "object": "bulk_data",
            "type": "oracle_cards",
            "updated_at": "2025-01-01T10:00:00.000+00:00",
            "download_uri": self.server.base_url + FILE_PATH,
            "size": size,
            "content_type": "application/json",
            "content_encoding": "gzip",
        }
        rulings = dict(entry, type="rulings", download_uri=self.server.base_url + "/files/rulings.json")
        body = json.dumps({"object": "list", "has_more": False, "data": [rulings, entry]}).encode()
        self.reply(scenario.listing_status, body, {"Content-Type": "application/json"})

    def file(self) -> None:
        scenario = self.server.scenario
        if scenario.file_429:
            scenario.file_429 -= 1
            return self.too_many()
        body = scenario.body
        headers = {"Content-Type": "application/json", "ETag": ETAG}
        if scenario.encoding == "gzip":
            headers["Content-Encoding"] = "gzip"
        requested = self.headers.get("Range", "")
        if_range = self.headers.get("If-Range")
        if scenario.ranges and requested.startswith("bytes=") and if_range in (None, ETAG):
            start = int(requested.removeprefix("bytes=").rstrip("-"))
            if start >= len(body):
                return self.reply(416, b"", {"Content-Range": f"bytes */{len(body)}"})
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
            return self.reply(206, body[start:], headers)
        if scenario.cut_first_at is not None:
            cut, scenario.cut_first_at = scenario.cut_first_at, None
            self.send_response(200)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            return None
        return self.reply(200, body, headers)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeScryfall]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    fake = FakeScryfall(("127.0.0.1", 0), Handler)
    fake.scenario = Scenario()
    thread = threading.Thread(target=fake.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield fake
    fake.shutdown()
    fake.server_close()
    thread.join(timeout=5)


@pytest.fixture
def old_index(tmp_path: Path) -> Path:
    """An index built earlier from another file: failures must leave it exactly as it was."""
    db = tmp_path / "cards.sqlite"
    import_bulk(ALL_CARDS, db, progress=False)
    return db


def assert_untouched(db: Path, folder: Path) -> None:
    assert len(read_records(db)) == 3
    assert index_meta(db)["source"] == str(ALL_CARDS)
    assert sorted(path.name for path in folder.iterdir()) == ["cards.sqlite"]


def cli_download(db: Path, server: FakeScryfall, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cards_app, ["download", "--db", str(db), "--base-url", server.base_url, *extra])
    return result.exit_code, result.stdout, result.stderr


# -- success ------------------------------------------------------------------------------------


def test_download_builds_the_index(tmp_path: Path, server: FakeScryfall) -> None:
    db = tmp_path / "cards.sqlite"
    status, out, err = cli_download(db, server)
    assert status == 0, err
    assert "Indexed 10 cards with dice out of 12" in out
    assert [card.name for card in search(db, "d20 table")] == ["Contact Other Plane", "Delina, Wild Mage"]
    assert (tmp_path / "oracle-cards.json").read_bytes() == ORACLE.read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cards.sqlite", "oracle-cards.json"]
    meta = index_meta(db)
    assert meta["source"] == server.base_url + FILE_PATH
    assert meta["updated_at"] == "2025-01-01T10:00:00.000+00:00"
    for _, headers in server.scenario.requests:
        assert headers["user-agent"].startswith("mtgdice/")
        assert headers["accept"] == "application/json;q=0.9,*/*;q=0.8"
    assert [path for path, _ in server.scenario.requests] == ["/bulk-data", FILE_PATH]


def test_an_up_to_date_index_is_not_downloaded_again(tmp_path: Path, server: FakeScryfall) -> None:
    db = tmp_path / "cards.sqlite"
    assert cli_download(db, server)[0] == 0
    status, out, _ = cli_download(db, server)
    assert status == 0
    assert "is up to date (2025-01-01T10:00:00.000+00:00)" in out
    assert [path for path, _ in server.scenario.requests] == ["/bulk-data", FILE_PATH, "/bulk-data"]
    assert cli_download(db, server, "--force")[0] == 0
    assert len(server.scenario.file_requests()) == 2


def test_a_gzip_transfer_is_stored_as_sent(tmp_path: Path, server: FakeScryfall) -> None:
    server.scenario.body = gzip.compress(ORACLE.read_bytes())
    server.scenario.encoding = "gzip"
    result = download_oracle_cards(tmp_path / "cards.sqlite", tmp_path, server.base_url, progress=False)
    assert result.path == tmp_path / "oracle-cards.json.gz"
    assert result.path.read_bytes()[:2] == b"\x1f\x8b"
    assert result.stats is not None and result.stats.cards_indexed == 10
    assert server.scenario.file_requests()[0]["accept-encoding"] == "gzip"


# -- 429 ------------------------------------------------------------------------------------------


def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits this test's thread asks ``time.sleep`` for (each still slept): waits as numbers, not durations."""
    asked: list[float] = []
    sleep, caller = time.sleep, threading.current_thread()

    def recorded(seconds: float) -> None:
        if threading.current_thread() is caller:
            asked.append(seconds)
        sleep(seconds)

    monkeypatch.setattr(time, "sleep", recorded)
    return asked


def test_429_waits_as_retry_after_says(tmp_path: Path, server: FakeScryfall, monkeypatch: pytest.MonkeyPatch) -> None:
    server.scenario.listing_429 = 1
    server.scenario.retry_after = "1"
    waits = sleeps(monkeypatch)
    result = download_oracle_cards(tmp_path / "cards.sqlite", tmp_path, server.base_url, progress=False)
    assert waits == [1.0]  # one wait, as long as Retry-After said
    assert result.waited == 1
    assert [path for path, _ in server.scenario.requests] == ["/bulk-data", "/bulk-data", FILE_PATH]


def test_429_wait_is_capped(tmp_path: Path, server: FakeScryfall, monkeypatch: pytest.MonkeyPatch) -> None:
    server.scenario.listing_429 = 1
    server.scenario.file_429 = 2
    server.scenario.retry_after = "3600"
    waits = sleeps(monkeypatch)
    result = download_oracle_cards(tmp_path / "cards.sqlite", tmp_path, server.base_url, retry=FAST, progress=False)
    assert waits == [FAST.max_wait] * 3  # Retry-After: 3600, each wait capped
    assert result.waited == 3
    assert result.stats is not None and result.stats.cards_indexed == 10


def test_endless_429_gives_up_and_keeps_the_index(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    server.scenario.file_429 = 100
    server.scenario.retry_after = None
    with pytest.raises(InputError) as raised:
        download_oracle_cards(old_index, tmp_path, server.base_url, retry=FAST, progress=False)
    assert str(raised.value) == (
        f"download: {server.base_url + FILE_PATH}: HTTP 429, and 3 retries did not help; try again later"
    )
    assert len(server.scenario.file_requests()) == 4
    assert_untouched(old_index, tmp_path)


# -- interrupted transfers ------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
def test_an_interrupted_transfer_resumes_with_range(tmp_path: Path, server: FakeScryfall, encoding: str) -> None:
    body = gzip.compress(ORACLE.read_bytes()) if encoding == "gzip" else ORACLE.read_bytes()
    server.scenario.body = body
    server.scenario.encoding = encoding
    server.scenario.cut_first_at = len(body) // 2
    result = download_oracle_cards(tmp_path / "cards.sqlite", tmp_path, server.base_url, retry=FAST, progress=False)
    first, second = server.scenario.file_requests()
    assert "range" not in first
    assert second["range"] == f"bytes={len(body) // 2}-"
    assert second["if-range"] == ETAG
    assert result.resumed == 1
    assert result.bytes_received == len(body)
    assert result.path is not None and result.path.read_bytes() == body
    assert result.stats is not None and result.stats.cards_indexed == 10


def test_a_server_that_ignores_range_restarts_from_zero(tmp_path: Path, server: FakeScryfall) -> None:
    server.scenario.ranges = False
    server.scenario.cut_first_at = 1000
    result = download_oracle_cards(tmp_path / "cards.sqlite", tmp_path, server.base_url, retry=FAST, progress=False)
    assert server.scenario.file_requests()[1]["range"] == "bytes=1000-"
    assert result.path is not None and result.path.read_bytes() == ORACLE.read_bytes()
    assert result.bytes_received == 1000 + len(ORACLE.read_bytes())


# -- bad files ------------------------------------------------------------------------------------


def test_a_truncated_file_is_rejected_and_the_index_kept(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    whole = ORACLE.read_bytes()
    server.scenario.body = whole[:-300]
    server.scenario.listed_size = len(whole)
    status, _, err = cli_download(old_index, server)
    assert status == 2
    assert err == (
        f"mtgdice: error: download: {server.base_url + FILE_PATH}: got {len(whole) - 300:,} bytes, "
        f"the listing says {len(whole):,}; the file is truncated or corrupt and the card index was not "
        "changed\n"
    )
    assert_untouched(old_index, tmp_path)


def test_a_corrupt_file_of_the_right_size_is_rejected(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    whole = ORACLE.read_bytes()
    middle = len(whole) // 2
    server.scenario.body = whole[:middle] + b"\x00garbage\x00" + whole[middle + 9 :]
    status, _, err = cli_download(old_index, server)
    assert status == 2
    assert err.count("\n") == 1
    assert "not valid JSON" in err and "the card index was not changed" in err
    assert_untouched(old_index, tmp_path)


def test_a_truncated_gzip_transfer_is_rejected(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    server.scenario.body = gzip.compress(ORACLE.read_bytes())[:-40]
    server.scenario.encoding = "gzip"
    server.scenario.listed_size = len(ORACLE.read_bytes())
    with pytest.raises(InputError, match="corrupt gzip data.*the card index was not changed"):
        download_oracle_cards(old_index, tmp_path, server.base_url, progress=False)
    assert_untouched(old_index, tmp_path)


def test_a_json_array_of_the_wrong_size_is_rejected(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    server.scenario.body = gzip.compress(ORACLE.read_bytes())
    server.scenario.encoding = "gzip"
    server.scenario.listed_size = len(ORACLE.read_bytes()) + 10
    with pytest.raises(InputError, match="bytes of JSON, expected .*: truncated or corrupt"):
        download_oracle_cards(old_index, tmp_path, server.base_url, progress=False)
    assert_untouched(old_index, tmp_path)


def test_listing_errors_are_one_line(tmp_path: Path, server: FakeScryfall, old_index: Path) -> None:
    server.scenario.listing_status = 500
    status, _, err = cli_download(old_index, server)
    assert (status, err) == (2, f"mtgdice: error: download: {server.base_url}/bulk-data answered HTTP 500\n")
    assert_untouched(old_index, tmp_path)


def test_an_unreachable_server_is_one_line(tmp_path: Path, old_index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with pytest.raises(InputError, match=r"^download: http://127\.0\.0\.1:9/bulk-data: cannot connect"):
        download_oracle_cards(old_index, tmp_path, "http://127.0.0.1:9", retry=RetryPolicy(max_retries=0))
    assert_untouched(old_index, tmp_path)


def test_offline_fails_at_once_without_retries(
    tmp_path: Path, old_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listening (or no name resolution) is not worth the retries a 429 or 503 gets."""

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    waits = sleeps(monkeypatch)
    with pytest.raises(InputError, match="cannot connect") as raised:
        download_oracle_cards(old_index, tmp_path, "http://127.0.0.1:9")  # the default retry policy
    assert waits == [] and "not changed" in str(raised.value)  # no back-off, no retry
    assert_untouched(old_index, tmp_path)


def test_no_name_resolution_says_so(tmp_path: Path, old_index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "*")
    with pytest.raises(InputError, match="name resolution failed"):
        download_oracle_cards(old_index, tmp_path, "http://no-such-host.invalid")
    assert_untouched(old_index, tmp_path)
