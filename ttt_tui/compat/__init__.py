"""Every workaround of a Textual or textual-serve bug, and nothing else."""
