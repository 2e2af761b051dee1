"""The browser fixtures of the Python checker page's tests (tests/browser/pyodide_support.py)."""

from pyodide_support import browser, built, from_file, from_http, served, tarball  # noqa: F401
