"""Shared by tests/conftest.py and the tests: the size of the stand-in for the paper-size corpus in fast tests.

(Kept out of conftest.py: with tests/browser/conftest.py on the path too, ``from conftest import …`` can
resolve to the browser one when the whole suite is collected.)
"""

PAPER_STAND_IN_USERS = {"private": 300, "public": 200}
