# Runs at every build: writes version.hpp with the current git commit, touching it only when the
# text changes so nothing rebuilds needlessly.
include(${CMAKE_CURRENT_LIST_DIR}/GitCommit.cmake)
if(NOT GIT_COMMIT)
  matcompare_git_commit(${SOURCE_DIR} GIT_COMMIT)
endif()
set(MATCOMPARE_GIT_COMMIT_TEXT "${GIT_COMMIT}")
configure_file(${INPUT} ${OUTPUT}.tmp)
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
