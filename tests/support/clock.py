"""A faked clock for the tests that make a report twice: every way tourney could read the time
(``datetime.datetime.now`` / ``utcnow`` / ``today``, ``datetime.date.today``, ``time.time`` and
``time.time_ns``, also where a module imported the name itself) answers ``when``."""
from __future__ import annotations

import datetime as _dt
import sys
import time

REAL_DATETIME, REAL_DATE = _dt.datetime, _dt.date


def set_clock(monkeypatch, when: _dt.datetime) -> None:
    """From now on (until the test ends) the clock reads ``when`` (an aware datetime)."""

    class FakeDatetime(REAL_DATETIME):
        @classmethod
        def now(cls, tz=None):
            return when.astimezone(tz) if tz is not None else when.astimezone().replace(tzinfo=None)

        @classmethod
        def utcnow(cls):
            return when.astimezone(_dt.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls):
            return cls.now()

    class FakeDate(REAL_DATE):
        @classmethod
        def today(cls):
            return when.astimezone().date()

    FakeDatetime.faked = FakeDate.faked = True
    monkeypatch.setattr(_dt, "datetime", FakeDatetime)
    monkeypatch.setattr(_dt, "date", FakeDate)
    for name, module in list(sys.modules.items()):  # `from datetime import datetime` in tourney's modules
        if not name.startswith("tourney_sim") or module is None:
            continue
        for attr, real, fake in (("datetime", REAL_DATETIME, FakeDatetime), ("date", REAL_DATE, FakeDate)):
            found = getattr(module, attr, None)
            if found is real or (isinstance(found, type) and issubclass(found, real) and getattr(found, "faked", False)):
                monkeypatch.setattr(module, attr, fake)
    monkeypatch.setattr(time, "time", lambda: when.timestamp())
    monkeypatch.setattr(time, "time_ns", lambda: int(when.timestamp() * 1e9))
