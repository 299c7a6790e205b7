"""The app's screens, one a module."""
