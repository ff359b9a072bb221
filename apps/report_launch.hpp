#pragma once
// How `matcompare report` finds Python and make_report.py and starts them: an argument vector and execv or
// posix_spawn, never a shell, so no character of a path or of a variable is ever interpreted.
#include <string>
#include <vector>

// The Python to run the report with. MATCOMPARE_PYTHON, when set, must name an executable file, by a path (with a
// '/') or by a name found on PATH, whose Python imports matplotlib; unset, the first of python3 on PATH and
// /usr/bin/python3 that does. Returns its path; throws std::invalid_argument naming the variable and its value.
std::string report_python();

// make_report.py. MATCOMPARE_REPORT_SCRIPT, when set, must be a readable, non-empty regular file named *.py; unset,
// the installed script, else the one in the source tree. Throws std::invalid_argument naming what is wrong.
std::string report_script(const std::string& installed, const std::string& in_source_tree);

// A file that `name` (no '/') names on PATH: the first regular file there that this process may execute, or "".
std::string find_on_path(const std::string& name);

// Replaces this process with `argv` (argv[0] a path). Returns only when that fails, with errno set.
void exec_argv(const std::vector<std::string>& argv);
