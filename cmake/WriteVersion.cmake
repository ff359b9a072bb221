# Runs at every build: writes version.hpp with the current git commit, touching it only when the
# text changes so nothing rebuilds needlessly.
if(NOT GIT_COMMIT)
  execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE _changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(GIT_COMMIT AND _changes)
    string(APPEND GIT_COMMIT "-modified")
  endif()
endif()
if(NOT GIT_COMMIT)
  set(GIT_COMMIT "unknown")
endif()
set(MATCOMPARE_GIT_COMMIT_TEXT "${GIT_COMMIT}")
configure_file(${INPUT} ${OUTPUT}.tmp)
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
