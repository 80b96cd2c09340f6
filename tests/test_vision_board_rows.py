"""Where the board finder puts the rows on the demo's first frame, the one ``companion demo``
calibrates from without corners: overhead, evenly lit, a black frame round black and red points.

The reader is measured to forgive a row a little inside its bases (2 px inside: no frame
unreadable of 112) and not one beyond them, on the frame's wall (2 px beyond: 2 frames
unreadable, 3.5 px: 11). Settling the rows where the points' colours end once moved the near
row 3.5 px outward here: the black points seem to go on into the black frame past their bases,
and a thin line of the red points' paint at the wall's foot made them seem to end there.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from companion.sim.demo import DEFAULT_SEED, render_demo_game
from companion.vision.board import find_board
from tests.sim_helpers import truth_corners

BEYOND_PX = 0.5
"""How far (pixels) a row's end may lie beyond its true line: no further than the truth's own
pixel rounding."""
INSIDE_PX = 2.5
"""How far (pixels) a row's end may lie inside it: past 2 px the reader was not measured."""


def _outward(
    ends: npt.NDArray[np.float64], row: npt.NDArray[np.float64], centre: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The signed distances (pixels; positive: away from the board's ``centre``, onto the
    frame) of a found row's two ``ends`` from the true ``row``'s line."""
    along = (row[1] - row[0]) / np.linalg.norm(row[1] - row[0])
    normal = np.array([-along[1], along[0]])
    if np.dot(normal, row[0] - centre) < 0:
        normal = -normal
    return np.asarray((ends - row[0]) @ normal)


def test_the_demo_s_first_frame_has_both_rows_on_their_bases_not_beyond() -> None:
    frame = next(render_demo_game(DEFAULT_SEED)).frame
    found = np.array(find_board(frame.image).corners_px, np.float64)
    truth = np.array(truth_corners(frame), np.float64)
    centre = truth.mean(axis=0)
    for name, ends in (("top", [0, 1]), ("bottom", [3, 2])):
        outward = _outward(found[ends], truth[ends], centre)
        assert np.all(outward <= BEYOND_PX), (name, outward)
        assert np.all(outward >= -INSIDE_PX), (name, outward)
