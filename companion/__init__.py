"""Tabletop Companion: rules engines, trackers and the table service for four Japanese indie games."""

__version__ = "0.1.0"
