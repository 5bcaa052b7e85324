"""stkref: the Python reference for the stk engine's STKHALFKA network (SPEC-NNUE.md).

Independent of the C++ code: built on python-chess and numpy so that a shared bug cannot
hide in both sides of a parity check.
"""

__version__ = "0.1.0"
