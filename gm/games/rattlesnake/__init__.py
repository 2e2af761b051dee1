"""Rattlesnake City."""
