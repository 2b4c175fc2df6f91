# Shell completions and documentation, included from CMakeLists.txt after the clgauge target.
# The bash and zsh completion scripts are printed by the built binary (`clgauge completions bash|zsh`, from the
# option table and the workload registry) into the build directory, and installed where bash-completion and
# zsh look for them. The documents the man page points to are installed under the doc directory, and the man
# page is installed with its doc paths pointing there (its source names the default prefix's paths).
# The file is named for its first job; it also holds the documentation's install rules.
set(COMPLETIONS_DIR ${CMAKE_BINARY_DIR}/completions)
add_custom_command(
  OUTPUT ${COMPLETIONS_DIR}/clgauge ${COMPLETIONS_DIR}/_clgauge
  COMMAND ${CMAKE_COMMAND} -E make_directory ${COMPLETIONS_DIR}
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:clgauge> -DSHELL_NAME=bash -DOUT=${COMPLETIONS_DIR}/clgauge
          -P ${CMAKE_SOURCE_DIR}/cmake/gen_completion.cmake
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:clgauge> -DSHELL_NAME=zsh -DOUT=${COMPLETIONS_DIR}/_clgauge
          -P ${CMAKE_SOURCE_DIR}/cmake/gen_completion.cmake
  DEPENDS clgauge ${CMAKE_SOURCE_DIR}/cmake/gen_completion.cmake
  COMMENT "Generating the bash and zsh completions" VERBATIM)
add_custom_target(completions ALL DEPENDS ${COMPLETIONS_DIR}/clgauge ${COMPLETIONS_DIR}/_clgauge)

install(FILES ${COMPLETIONS_DIR}/clgauge DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${COMPLETIONS_DIR}/_clgauge DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)

# The man page's references (report-schema.md, reports.md, peak.md, workloads/) with everything they link to
# (results/, the sample report): all of docs/ but the man page itself, about 2 MB.
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} PATTERN clgauge.1 EXCLUDE)

# The man page, its "/usr/local/share/doc/clgauge" replaced at install time by the doc directory under the
# prefix then in force (`cmake --install --prefix` may change it).
install(CODE "
  set(docdir \"${CMAKE_INSTALL_DOCDIR}\")
  if(NOT IS_ABSOLUTE \"\${docdir}\")
    set(docdir \"\${CMAKE_INSTALL_PREFIX}/\${docdir}\")
  endif()
  file(READ \"${CMAKE_SOURCE_DIR}/docs/clgauge.1\" man)
  string(REPLACE \"/usr/local/share/doc/clgauge\" \"\${docdir}\" man \"\${man}\")
  file(WRITE \"${CMAKE_BINARY_DIR}/man/clgauge.1\" \"\${man}\")
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1\" TYPE FILE
       FILES \"${CMAKE_BINARY_DIR}/man/clgauge.1\")
")
