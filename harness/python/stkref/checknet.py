"""python -m stkref.checknet FILE [--allow-trailing]: validate a .nnue file and describe it.

Exit 0 on a valid file (prints header fields, size and SHA-256), 2 with the reason otherwise.
"""

from __future__ import annotations

import hashlib
import sys

from .cli import ToolParser, run_tool
from .inputs import input_file, read_input_bytes
from .netfile import decode, parse_header


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkref.checknet", description=__doc__)
    ap.add_argument("file", type=input_file())
    ap.add_argument(
        "--allow-trailing",
        action="store_true",
        help="accept bytes after the last tensor (rejected by default)",
    )
    args = ap.parse_args(argv)
    name = str(args.file)
    data = read_input_bytes(name)  # once: what is described is what was validated
    model = decode(data, name, allow_trailing=args.allow_trailing)
    header = parse_header(data[:25], name)
    print(f"file      {args.file}")
    print(f"magic     {header.magic.decode('ascii')}")
    print(f"version   {header.version}")
    print(f"features  {header.features}")
    print(f"hidden    {header.hidden}")
    print(f"buckets   {header.buckets}")
    print(f"size      {len(data)} bytes")
    print(f"sha256    {hashlib.sha256(data).hexdigest()}")
    print(f"params    sha256 {model.digest()}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
