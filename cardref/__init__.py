"""cardref: a live-table camera referee for the card games of Shandong."""

__version__ = "0.1.0"
