#pragma once
// The text of gpu/simt-tuned's tuning table (src/gpu/simt/simt_tuning_table.inc) as matcompare-tune rewrites it: a
// run replaces this GPU's rows of the classes it tuned and keeps every other row as it was.
#include <string>
#include <vector>

// The table's text after a run on compute capability `cc` that tuned the short-C class (its rows' bound is
// `short_bound`) or the other classes: the header, the rows of `old_text` it does not replace, then `own_rows`.
std::string rewritten_tuning_table(const std::string& old_text, int cc, long long short_bound, bool short_class,
                                   const std::vector<std::string>& own_rows);
