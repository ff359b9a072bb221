"""The parts of report/make_report.py, each readable and testable alone: runs (reading, checking and
merging the JSON files), markdown, tables, scaling (the multi-GPU rows), seeds and plots."""
