"""The test suite: a package, so test files can share `tests.support`."""
