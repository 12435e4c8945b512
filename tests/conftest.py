from pathlib import Path

import pytest

# The shared data folder sits beside the checkout (as in CI); tests that read it skip without it.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared data folder {SHARED} is absent (it sits beside the checkout in CI)")
    return SHARED
