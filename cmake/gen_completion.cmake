# Writes `BIN completions SHELL_NAME` to OUT (cmake -P; a failure stops the build).
execute_process(COMMAND ${BIN} completions ${SHELL_NAME} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "`${BIN} completions ${SHELL_NAME}` failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
