"""Browser tests: Debian's chromium driven by Python playwright, against a real waitress
server on 127.0.0.1. They skip with the reason when playwright or chromium is missing.

Install (no browser download): `pip install playwright` and `apt-get install -y chromium`.
Screenshots and PDFs land in artifacts/browser/ (git-ignored).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser.serving import serving

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Python playwright is not installed "
                                   "(pip install playwright; no browser download needed)")
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(f"chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                           "--disable-dev-shm-usage"])
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path):
    """The app under waitress on a free port: (base URL, app)."""
    from webui import create_app

    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "browser-tests", "SSE_HEARTBEAT": 2.0})
    with serving(app, threads=24) as base:
        yield base, app


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def phone_or_desk(browser):
    """Open a page on a screen of the given size; (page, its script errors). Dialogs are accepted."""
    def open_page(screen):
        context = browser.new_context(**screen)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda dialog: dialog.accept())
        return page, errors
    return open_page
