"""`python -m stkmutation [campaign] ...`: ci/mutation.sh's entry point (docs/mutation.md).

Both commands run under stkref.cli.run_tool (their main): exit 2 with an <error> report on any
failure, never a traceback."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    # The campaign page reads the tool's reports; the tool never needs the campaign (no circle).
    if argv[:1] == ["campaign"]:
        from stkmutation import campaign

        return campaign.main(argv[1:])
    from stkmutation import schema_run

    return schema_run.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
