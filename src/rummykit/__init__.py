"""rummykit: every rummy table people play, with an exact arranger, bots and a table."""

__version__ = "0.1.0"
