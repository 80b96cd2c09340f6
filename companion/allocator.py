"""Keep freed image buffers in the process for the next frame.

Every frame allocates dozens of arrays of one to four megabytes (the board plane in L*a*b*,
its evidence maps, the renderer's layers). glibc serves blocks that large with ``mmap`` and
hands them back to the system when they are freed, so the next frame takes a page fault for
every 4 KiB of every array again: measured on this project's 2-core machine, reading a frame
took 77.5 ms that way and 68.8 ms with the blocks kept (median CPU time over 40 frames).

Raising glibc's thresholds makes such blocks come from the heap and stay there between
frames. The memory kept is what one frame needs at its peak, which the process has used
anyway. On a C library other than glibc this does nothing.
"""

from __future__ import annotations

import ctypes

# mallopt parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3

_MMAP_THRESHOLD = 32 * 1024 * 1024
"""Blocks below this come from the heap (32 MiB is the largest glibc accepts on 64 bits)."""
_TRIM_THRESHOLD = 128 * 1024 * 1024
"""Free memory at the top of the heap kept rather than returned (a frame's peak fits)."""
_TOP_PAD = 16 * 1024 * 1024
"""Extra grown at once when the heap grows, so a frame does not grow it bit by bit."""


def keep_freed_buffers() -> bool:
    """Tunes glibc's allocator for frame-sized arrays; True where it applied (glibc only)."""
    try:
        # the symbols the interpreter itself was linked with: its C library's among them
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return all(
        mallopt(parameter, value) == 1
        for parameter, value in (
            (_M_MMAP_THRESHOLD, _MMAP_THRESHOLD),
            (_M_TRIM_THRESHOLD, _TRIM_THRESHOLD),
            (_M_TOP_PAD, _TOP_PAD),
        )
    )
