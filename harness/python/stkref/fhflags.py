"""The flag bits of a fail-high record (docs/fail-high-calibration.md, the .fhr contract): their own
module so that the model (fhmodel) and the record reader (fhrecords) both name them without
importing each other."""

from __future__ import annotations

# flags bits (bits 6-7 must be zero)
WHOLE_NODE, LABEL, IMPROVING, OPP_IMPROVING, CUT_NODE, BLACK = (1 << i for i in range(6))
FLAG_BITS = {
    "whole_node": WHOLE_NODE,
    "label": LABEL,
    "improving": IMPROVING,
    "opp_improving": OPP_IMPROVING,
    "cut_node": CUT_NODE,
    "black": BLACK,
}
