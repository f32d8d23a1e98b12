"""``python -m mtgdice.cli``: the same as the ``mtgdice`` console script."""

from mtgdice.cli import main

main()
