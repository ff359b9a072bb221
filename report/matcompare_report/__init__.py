"""The parts of report/make_report.py, each readable and testable alone: runs (reading, checking and
merging the JSON files), markdown, tables, vendors (the best vendor and the vendor libraries), scaling (the
multi-GPU rows), seeds and plots."""
