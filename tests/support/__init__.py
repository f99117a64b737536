"""Helper modules the test modules share, so that no test module imports another: one per game
(``tests/support/<game>.py``: states built by hand, the state invariant, hiding what a seat cannot
see) and the CLI runner (``cli.py``)."""
