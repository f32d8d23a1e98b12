"""Download Scryfall's ``oracle_cards`` bulk file and build the local card index from it.

:func:`download_oracle_cards` asks ``/bulk-data`` where today's file is, streams it to a ``.part``
file with the headers Scryfall asks for (an accurate ``User-Agent`` and an ``Accept`` header),
waits out HTTP 429, 502, 503 and 504 as ``Retry-After`` says (capped, a bounded number of times), resumes an
interrupted transfer with a ``Range`` request, fails at once when the server cannot be reached at
all (offline, no name resolution: retrying would only make the user wait), then imports it with
:func:`mtgdice.cards.index.import_bulk`, which checks the size the listing gives and that the file
is one JSON array before it replaces the index. A bad file leaves the previous index as it was.

The file is stored as it travels: with ``Content-Encoding: gzip`` the bytes on disk are gzip, and the
reader recognises them by their magic bytes; byte ranges then count compressed bytes, as the server
does.

Left out: the other bulk files' uses (``all_cards`` can be imported from a local file), the card API
(``/cards/named`` etc.), and resuming a ``.part`` left by an earlier process (its encoding and
version are unknown, so it is discarded).
"""

from __future__ import annotations

import email.utils
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from mtgdice.cards.index import ImportStats, byte_progress, default_index_path, import_bulk, index_meta
from mtgdice.errors import InputError

if TYPE_CHECKING:
    import httpx

__all__ = ["BulkListing", "DownloadResult", "RetryPolicy", "download_oracle_cards", "user_agent"]

SCRYFALL_API = "https://api.scryfall.com"
_FIELD = "download"
_RETRY_STATUSES = frozenset({429, 502, 503, 504})


def user_agent() -> str:
    """The ``User-Agent`` Scryfall asks every client to send: the app's name and version.

    >>> user_agent().startswith("mtgdice/")
    True
    """
    try:
        version = metadata.version("mtgdice")
    except metadata.PackageNotFoundError:
        version = "dev"
    return f"mtgdice/{version}"


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How long and how often to wait: after HTTP 429/502/503/504 (``Retry-After``, capped at ``max_wait``
    seconds; ``default_wait`` when the header is missing), and after a network failure or an
    interrupted transfer (1, 2, 4, ... seconds, capped). ``max_retries`` counts both.

    >>> RetryPolicy(max_wait=5).wait_for("120"), RetryPolicy().wait_for("2"), RetryPolicy().wait_for(None)
    (5.0, 2.0, 30.0)
    """

    max_retries: int = 5
    max_wait: float = 60.0
    default_wait: float = 30.0

    def wait_for(self, retry_after: str | None) -> float:
        """Seconds to wait for a ``Retry-After`` value (delay seconds or an HTTP date)."""
        wait = self.default_wait
        if retry_after is not None:
            try:
                wait = float(retry_after)
            except ValueError:
                try:
                    when = email.utils.parsedate_to_datetime(retry_after)
                    wait = (when - datetime.now(UTC)).total_seconds()
                except (TypeError, ValueError):
                    pass
        return float(min(max(wait, 0.0), self.max_wait))


DEFAULT_RETRY = RetryPolicy()


class BulkDataEntry(TypedDict, total=False):
    """The fields of one ``bulk_data`` object of Scryfall's ``/bulk-data`` list that are read here
    (each is checked: the list is another service's JSON)."""

    type: str
    download_uri: str
    size: int
    updated_at: str
    content_encoding: str


@dataclass(frozen=True, slots=True)
class BulkListing:
    """One entry of Scryfall's ``/bulk-data`` list."""

    type: str
    download_uri: str
    size: int | None
    updated_at: str
    content_encoding: str | None

    @classmethod
    def from_json(cls, obj: BulkDataEntry) -> BulkListing:
        """Read one ``bulk_data`` object; a missing ``download_uri`` is an InputError.

        >>> BulkListing.from_json({"type": "oracle_cards", "download_uri": "https://x/o.json", "size": 9}).size
        9
        """
        uri = obj.get("download_uri")
        if not isinstance(uri, str) or not uri:
            raise InputError(_FIELD, f"the bulk-data entry {obj.get('type')!r} has no download_uri")
        size = obj.get("size")
        encoding = obj.get("content_encoding")
        return cls(
            type=str(obj.get("type")),
            download_uri=uri,
            size=size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None,
            updated_at=str(obj.get("updated_at") or ""),
            content_encoding=encoding if isinstance(encoding, str) else None,
        )


@dataclass(frozen=True, slots=True)
class DownloadResult:
    """What :func:`download_oracle_cards` did; ``stats`` is ``None`` when the index was up to date."""

    listing: BulkListing
    path: Path | None
    bytes_received: int
    resumed: int
    waited: int
    stats: ImportStats | None


class _Budget:
    """The retries left, shared by every request of one download."""

    def __init__(self, policy: RetryPolicy) -> None:
        self.policy = policy
        self.used = 0
        self.waits = 0
        self.resumes = 0

    def spend(self, url: str, reason: str) -> None:
        if self.used >= self.policy.max_retries:
            raise InputError(_FIELD, f"{url}: {reason}, and {self.used} retries did not help; try again later")
        self.used += 1

    def back_off(self, url: str, reason: str) -> None:
        """After a network failure: wait 1, 2, 4, ... seconds (capped) before trying again."""
        self.spend(url, reason)
        time.sleep(min(2.0 ** (self.used - 1), self.policy.max_wait))

    def wait(self, url: str, response: httpx.Response) -> None:
        self.spend(url, f"HTTP {response.status_code}")
        self.waits += 1
        time.sleep(self.policy.wait_for(response.headers.get("Retry-After")))


def _client(timeout: float) -> httpx.Client:
    try:
        import httpx
    except ImportError:
        raise InputError(_FIELD, "downloading needs httpx: pip install httpx") from None
    return httpx.Client(
        headers={
            "User-Agent": user_agent(),
            "Accept": "application/json;q=0.9,*/*;q=0.8",
            # Only encodings the bulk reader can open; ranges then count bytes of this encoding.
            "Accept-Encoding": "gzip",
        },
        timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
        follow_redirects=True,
    )


def _listing(client: httpx.Client, base_url: str, bulk_type: str, budget: _Budget) -> BulkListing:
    import httpx

    url = base_url.rstrip("/") + "/bulk-data"
    while True:
        try:
            response = client.get(url)
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            # Offline, no name resolution, nothing listening: waiting and retrying would not help.
            raise InputError(_FIELD, _unreachable(url, error)) from None
        except httpx.TransportError as error:
            budget.back_off(url, f"the request failed ({error})")
            continue
        if response.status_code in _RETRY_STATUSES:
            budget.wait(url, response)
            continue
        break
    if response.status_code != 200:
        raise InputError(_FIELD, f"{url} answered HTTP {response.status_code}")
    try:
        entries = response.json().get("data")
    except (ValueError, AttributeError):
        entries = None
    if not isinstance(entries, list):
        raise InputError(_FIELD, f"{url} did not answer with a bulk-data list")
    listed: list[BulkDataEntry] = entries  # each checked below and in from_json
    for entry in listed:
        if isinstance(entry, dict) and entry.get("type") == bulk_type:
            return BulkListing.from_json(entry)
    raise InputError(_FIELD, f"{url} lists no {bulk_type!r} file")


def _unreachable(url: str, error: Exception) -> str:
    """Why a server could not be reached, in one line (no retries are spent on it).

    >>> _unreachable("https://api.example/bulk-data", OSError("[Errno -3] Temporary failure in name resolution"))
    'https://api.example/bulk-data: name resolution failed (offline?); the card index was not changed'
    """
    text = str(error)
    names = ("name resolution", "Name or service not known", "nodename nor servname", "getaddrinfo")
    reason = "name resolution failed (offline?)" if any(name in text for name in names) else f"cannot connect ({text})"
    return f"{url}: {reason}; the card index was not changed"


def _encoding(response: httpx.Response) -> str:
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower() or "identity"
    if encoding not in ("identity", "gzip"):
        raise InputError(_FIELD, f"{response.url} sent the file as {encoding!r}, which mtgdice cannot read")
    return encoding


def _range_start(response: httpx.Response) -> int | None:
    content_range = response.headers.get("Content-Range", "")
    unit, _, rest = content_range.partition(" ")
    start, _, _ = rest.partition("-")
    return int(start) if unit == "bytes" and start.isdigit() else None


def _transfer(
    client: httpx.Client, listing: BulkListing, part: Path, budget: _Budget, progress: bool
) -> tuple[int, str]:
    """Stream the file into ``part``, resuming after interruptions; returns (bytes, encoding)."""
    import httpx

    url = listing.download_uri
    part.unlink(missing_ok=True)
    encoding = "identity"
    validator: str | None = None
    received = 0
    total = listing.size
    with byte_progress("downloading", total, progress) as advance_to:
        while True:
            offset = part.stat().st_size if part.exists() else 0
            headers = {}
            if offset:
                headers["Range"] = f"bytes={offset}-"
                if validator:
                    headers["If-Range"] = validator
            try:
                with client.stream("GET", url, headers=headers) as response:
                    if response.status_code in _RETRY_STATUSES:
                        budget.wait(url, response)
                        continue
                    if response.status_code == 206 and offset:
                        if _range_start(response) != offset or _encoding(response) != encoding:
                            # Not the continuation of our bytes: start again from the beginning.
                            part.unlink()
                            budget.spend(url, "the server resumed at the wrong place")
                            continue
                        mode = "ab"
                    elif response.status_code == 200:
                        mode, offset = "wb", 0
                        encoding = _encoding(response)
                        validator = response.headers.get("ETag") or response.headers.get("Last-Modified")
                        length = response.headers.get("Content-Length", "")
                        total = int(length) if length.isdigit() else listing.size
                    elif response.status_code == 416 and offset:
                        if response.headers.get("Content-Range", "") == f"bytes */{offset}":
                            return received, encoding  # The last attempt had every byte already.
                        part.unlink()
                        budget.spend(url, "the server refused to resume")
                        continue
                    else:
                        raise InputError(_FIELD, f"{url} answered HTTP {response.status_code}")
                    with open(part, mode) as out:
                        done = offset
                        for chunk in response.iter_raw():
                            out.write(chunk)
                            done += len(chunk)
                            received += len(chunk)
                            advance_to(done, total)
            except httpx.TransportError as error:
                budget.back_off(url, f"the transfer failed ({error})")
                budget.resumes += 1
                continue
            return received, encoding


def download_oracle_cards(
    db_path: str | os.PathLike[str] | None = None,
    dest_dir: str | os.PathLike[str] | None = None,
    base_url: str = SCRYFALL_API,
    *,
    bulk_type: str = "oracle_cards",
    retry: RetryPolicy = DEFAULT_RETRY,
    progress: bool = True,
    force: bool = False,
    timeout: float = 60.0,
) -> DownloadResult:
    """Download the current ``oracle_cards`` file into ``dest_dir`` and index it into ``db_path``.

    Skips the download when the index already holds this version of the file (``force`` to redo).
    A transfer that fails for good, a truncated or corrupt file, raises a one-line
    :class:`~mtgdice.errors.InputError`; the previous index is left untouched.
    """
    target = Path(db_path).expanduser() if db_path is not None else default_index_path()
    folder = Path(dest_dir).expanduser() if dest_dir is not None else target.parent
    budget = _Budget(retry)
    with _client(timeout) as client:
        listing = _listing(client, base_url, bulk_type, budget)
        if not force and target.is_file() and listing.updated_at:
            try:
                current = index_meta(target)
            except InputError:
                current = {}
            if current.get("updated_at") == listing.updated_at and current.get("bulk_type") == bulk_type:
                return DownloadResult(listing, None, 0, 0, budget.waits, None)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(_FIELD, f"cannot write to {folder} ({error.strerror})") from None
        stem = bulk_type.replace("_", "-")
        part = folder / f"{stem}.download.part"
        try:
            received, encoding = _transfer(client, listing, part, budget, progress)
            suffix = ".json.gz" if encoding == "gzip" else ".json"
            if encoding == "identity" and listing.size is not None and part.stat().st_size != listing.size:
                raise InputError(
                    _FIELD,
                    f"{listing.download_uri}: got {part.stat().st_size:,} bytes, the listing says "
                    f"{listing.size:,}; the file is truncated or corrupt and the card index was not changed",
                )
            meta = {
                "source": listing.download_uri,
                "bulk_type": bulk_type,
                "updated_at": listing.updated_at,
            }
            try:
                stats = import_bulk(part, target, progress, expected_size=listing.size, meta=meta)
            except InputError as error:
                if error.field != str(part):
                    raise
                raise InputError(
                    _FIELD,
                    f"{listing.download_uri}: file rejected, {error.problem}; the card index was not changed",
                ) from None
            final = folder / f"{stem}{suffix}"
            os.replace(part, final)
            (folder / f"{stem}{'.json' if suffix == '.json.gz' else '.json.gz'}").unlink(missing_ok=True)
        except OSError as error:
            raise InputError(_FIELD, f"cannot write {part} ({error.strerror or error})") from None
        finally:
            part.unlink(missing_ok=True)
    return DownloadResult(listing, final, received, budget.resumes, budget.waits, stats)
