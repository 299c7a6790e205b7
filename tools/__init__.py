"""Developer tools: benchmarks and measurements, run from the clone's top folder, never
shipped; docs/development.md lists them. Nothing in ``ttt_tui`` imports from here (a test
checks)."""
