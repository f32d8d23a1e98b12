"""The hypothesis profile: fixed and derandomized in CI, so a CI run draws the same examples each time."""

from __future__ import annotations

import os

from hypothesis import settings


def test_ci_profile_is_fixed() -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize is True
    assert ci.max_examples == 100
    assert ci.deadline is None


def test_the_profile_follows_the_environment() -> None:
    wanted = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
    assert settings.default == settings.get_profile(wanted)
