"""Vision: a camera frame and a calibration profile in, a :class:`~.reading.Reading` out.

Pure functions of image arrays (no camera, no files): :func:`.calibrate.calibrate` learns a
:class:`~.profile.Profile` from one frame, :func:`.reader.read_frame` reads every later frame.
The modules, in the order a frame flows through them:

* :mod:`.board` finds the playing area; :mod:`.plane` maps the frame onto the canonical board
  plane of :mod:`companion.geometry` (and recovers the camera, to look at heights);
* :mod:`.reference` learns the empty board; :mod:`.maps` compares each frame with it;
* :mod:`.checkers` counts every point, the bar and the trays; :mod:`.dice` and :mod:`.pips`
  find and read the dice; :mod:`.reader` assembles the :mod:`.reading` with confidences.

Conventions: white's point numbering, colours ``white`` (lighter) and ``black``, the Reading
JSON of ``DESIGN.md``. Whenever a region is unsure, the reading is unreadable and names it.
"""
