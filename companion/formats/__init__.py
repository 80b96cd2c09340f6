"""File formats for game records that other backgammon programs read (one module per format)."""
