"""Error types shared by the tools: both map to exit status 2 (usage or input error)."""


class InputError(Exception):
    """Bad input (file, line, option): the message names the file and line or offset."""


class NetFormatError(InputError):
    """A .nnue file that violates the loader contract; the message names file, field, offset."""
