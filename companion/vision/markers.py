"""Optional ArUco markers stuck at the corners of the playing area.

Some boards defeat any automatic finder: a patterned frame, a playing area the colour of the
table, a camera that sees the board from a low angle. Four small printed markers settle it: a
user sticks one at each corner of the playing area, with the marker's inner corner (the one
nearest the board's centre) on the playing area's corner. Any four distinct markers of
OpenCV's 4x4 dictionary will do; ``companion markers`` prints a sheet of them.

Pure: an image array in, four image points (or None) out.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.plane import Corners, Image, order_clockwise

DICTIONARY = cv2.aruco.DICT_4X4_50
"""The marker family: small (4x4 bits) and robust, read at a few pixels per bit."""
IDS = (0, 1, 2, 3)
"""The markers ``companion markers`` prints (any four distinct ones are read)."""


def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def find_marker_corners(image: Image) -> Corners | None:
    """The playing area's corners from four markers, clockwise from the top-left as the image
    shows them; None unless exactly four distinct markers are seen (then the board is found
    without them)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    found, ids, _rejected = _detector().detectMarkers(gray)
    if ids is None:
        return None
    markers = {
        int(i): np.asarray(c, np.float64).reshape(4, 2)
        for i, c in zip(ids.ravel(), found, strict=True)
    }
    if len(markers) != 4 or len(ids) != 4:
        return None
    squares = list(markers.values())
    centre = np.mean([square.mean(axis=0) for square in squares], axis=0)
    inner = [square[int(np.argmin(np.linalg.norm(square - centre, axis=1)))] for square in squares]
    return order_clockwise([(float(x), float(y)) for x, y in inner])


def marker_sheet(size_mm: float = 30.0, dpi: int = 300) -> npt.NDArray[np.uint8]:
    """A printable sheet (white, A4 at ``dpi``) of the four markers, each ``size_mm`` wide with
    a white margin, labelled by id: cut them out and stick one at each corner."""
    px_per_mm = dpi / 25.4
    sheet = np.full((round(297 * px_per_mm), round(210 * px_per_mm)), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side = round(size_mm * px_per_mm)
    scale = 0.9 * dpi / 300
    for line, text in enumerate(
        (
            "Backgammon Companion: corner markers (print at 100%, cut out with a white margin)",
            "Stick one at each corner of the playing area (both halves and the bar), its inner",
            "corner on the playing area's corner. Then: companion calibrate IMAGE -o PROFILE",
        )
    ):
        at = (round(12 * px_per_mm), round((12 + 7 * line) * px_per_mm))
        cv2.putText(sheet, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8, 0, 2)
    for index, marker_id in enumerate(IDS):
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        column, row = index % 2, index // 2
        x = round((40 + column * 90) * px_per_mm)
        y = round((50 + row * 90) * px_per_mm)
        sheet[y : y + side, x : x + side] = marker
        label = (x, y + side + round(8 * px_per_mm))
        cv2.putText(sheet, f"marker {marker_id}", label, cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 2)
    return sheet
