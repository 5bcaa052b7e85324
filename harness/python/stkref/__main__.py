"""python -m stkref: list the tools."""

TOOLS = (
    "checkpoint",
    "export",
    "checknet",
    "parity",
    "drift",
    "golden",
    "fhrecords",
    "fhfit",
    "calibration",
    "fhsynth",
    "perft",
    "sprt",
)

if __name__ == "__main__":
    print("stkref tools (run as python -m stkref.<tool> --help):")
    for tool in TOOLS:
        print(f"  {tool}")
