"""python -m stktrain.export CHECKPOINT OUT.nnue: quantize a float checkpoint and write the net.

Prints the clipped-value count of every tensor: clipping is reported, never silent.
"""

from __future__ import annotations

import sys
from pathlib import Path

from stkref.checkpoint import load_checkpoint
from stkref.cli import ToolParser, run_tool
from stkref.inputs import input_file
from stkref.netfile import sha256_file, write
from stkref.outputs import Output
from stkref.quantize import quantize_model


def build_parser() -> ToolParser:
    ap = ToolParser(
        prog="python -m stktrain.export",
        description=__doc__,
        outputs=lambda a: [Output("OUT", Path(a.out))],
    )
    ap.add_argument("checkpoint", type=input_file(), help=".npz (or torch .pt state_dict)")
    ap.add_argument("out", help="output .nnue path")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    model = quantize_model(load_checkpoint(args.checkpoint))
    write(model, args.out)
    print(f"hidden {model.hidden}")
    for key, count in model.clipped.items():
        print(f"clipped {key:12s} {count}")
    print(f"total clipped {sum(model.clipped.values())}")
    print(f"wrote {args.out} sha256 {sha256_file(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
