"""The browser fixtures of the checker page's tests (tests/tools/checker/browser_support.py)."""

from browser_support import browser, browsing, built, offline_browsing  # noqa: F401
