"""``python -m mtgdice``: the same command as the ``mtgdice`` script.

>>> import subprocess, sys
>>> subprocess.run([sys.executable, "-m", "mtgdice", "--version"], capture_output=True, text=True).stdout.split()[0]
'mtgdice'
"""

from mtgdice.cli import main

if __name__ == "__main__":
    main()
