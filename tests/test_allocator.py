"""The allocator tuning that keeps a frame's freed arrays for the next frame."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from companion.allocator import keep_freed_buffers

# In a fresh process: page faults taken by 40 frames that each hold sixteen arrays of a plane
# view's size (1.4 MB) at once and then free them, before and after the tuning.
FAULTS = """
import resource, numpy as np
from companion.allocator import keep_freed_buffers

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(40):
        arrays = [np.ones((520, 685), np.float32) for _ in range(16)]
        del arrays
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

untuned = faults()
applied = keep_freed_buffers()
faults()
print(untuned, faults(), applied)
"""

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="the tuning applies to glibc only")
def test_freed_frame_buffers_are_reused_without_page_faults() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FAULTS], capture_output=True, text=True, check=True, timeout=60
    )
    untuned, tuned, applied = done.stdout.split()
    assert applied == "True"
    # untuned, most frames fault their pages in again (16 x 348 a frame); tuned, reused
    assert int(untuned) > 40 * 16 * 348 / 2
    assert int(tuned) < int(untuned) / 20


def test_tuning_twice_is_harmless() -> None:
    assert keep_freed_buffers() == keep_freed_buffers()
