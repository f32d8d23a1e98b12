"""A naive reference for exact odds, written from CR 706 and the JSON interface alone (see naive.py)."""
