from pathlib import Path

import pytest

# The shared data folder sits beside the checkout (as in CI); tests that read it skip without it.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared data folder {SHARED} is absent (it sits beside the checkout in CI)")
    return SHARED


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL cluster for the whole run (tests/postgres_cluster.py); skips
    the test, with the reason, where PostgreSQL is not installed."""
    import shutil

    from tests.postgres_cluster import ClusterUnavailable, start_cluster

    try:
        cluster = start_cluster()
    except ClusterUnavailable as reason:
        pytest.skip(f"{reason}: the PostgreSQL half of the storage tests skips")
    yield cluster
    cluster.stop()
    shutil.rmtree(cluster.folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh database for one test, on SQLite and again on PostgreSQL (where installed)."""
    from webui.storage import db

    if request.param == "sqlite":
        yield db.url_for_path(tmp_path / "tenbou.sqlite3")
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.new_database()
    yield url
    cluster.drop(url)
