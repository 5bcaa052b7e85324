"""python -m stkref.checknet FILE [--allow-trailing]: validate a .nnue file and describe it.

Exit 0 on a valid file (prints header fields, size and SHA-256), 2 with the reason otherwise.
"""

from __future__ import annotations

import os
import sys

from .cli import ToolParser, run_tool
from .netfile import parse_header, read, sha256_file


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkref.checknet", description=__doc__)
    ap.add_argument("file")
    ap.add_argument(
        "--allow-trailing",
        action="store_true",
        help="accept bytes after the last tensor (rejected by default)",
    )
    args = ap.parse_args(argv)
    model = read(args.file, allow_trailing=args.allow_trailing)
    with open(args.file, "rb") as f:
        header = parse_header(f.read(25), args.file)
    print(f"file      {args.file}")
    print(f"magic     {header.magic.decode('ascii')}")
    print(f"version   {header.version}")
    print(f"features  {header.features}")
    print(f"hidden    {header.hidden}")
    print(f"buckets   {header.buckets}")
    print(f"size      {os.path.getsize(args.file)} bytes")
    print(f"sha256    {sha256_file(args.file)}")
    print(f"params    sha256 {model.digest()}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
