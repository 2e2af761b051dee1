"""Alembic revision scripts, one per schema change (a package so it is installed)."""
