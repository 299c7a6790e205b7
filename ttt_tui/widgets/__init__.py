"""The game's widgets, one a module."""
