"""The benchmarks: one script per figure of docs/benchmarks.md, run as
``.venv/bin/python benchmarks/<name>.py``; tests import them as ``benchmarks.<name>``."""
