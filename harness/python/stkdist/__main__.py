import sys

from stkdist.cli import entry

if __name__ == "__main__":
    sys.exit(entry())
