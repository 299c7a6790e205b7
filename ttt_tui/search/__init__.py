"""Where the engine's searches run: a process of their own (`ttt_tui.search.worker`),
and its client for the app's event loop (`ttt_tui.search.client`).

No UI imports (a test proves it).
"""
