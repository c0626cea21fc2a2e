# Writes a manual page for each program from its --help text (included by
# cmake_install.cmake; TTT_PROGRAMS, TTT_STAGING_DIR, TTT_MANDIR and
# TTT_VERSION come from packaging/CMakeLists.txt). `man ttt-server` then
# shows exactly what `ttt-server --help` says.
foreach(program_path IN LISTS TTT_PROGRAMS)
  get_filename_component(program "${program_path}" NAME)
  execute_process(COMMAND "${program_path}" --help OUTPUT_VARIABLE usage RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${program} --help failed: the manual page can't be written")
  endif()
  # The first line is "usage: PROGRAM [flags]", the next the summary.
  string(REGEX MATCH "\n([^\n]*)" summary "${usage}")
  string(STRIP "${CMAKE_MATCH_1}" summary)
  string(REGEX REPLACE "\\.( .*)?$" "" summary "${summary}")  # its first sentence
  string(REPLACE "\\" "\\e" body "${usage}")
  string(REPLACE "-" "\\-" body "${body}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" body "${body}")
  string(REPLACE "-" "\\-" name_line "${program} - ${summary}")
  string(TOUPPER "${program}" title)
  file(WRITE "${TTT_STAGING_DIR}/${program}.1"
       ".TH ${title} 1 \"\" \"ttt ${TTT_VERSION}\" \"ttt\"\n"
       ".SH NAME\n${name_line}\n"
       ".SH SYNOPSIS\n.B ${program}\n[\\fIflags\\fR]\n"
       ".SH DESCRIPTION\n.nf\n${body}.fi\n"
       ".SH SEE ALSO\nThe README of ttt, and /usr/share/doc/ttt/hosting.md for hosting a lobby.\n")
  execute_process(COMMAND gzip -9nf "${TTT_STAGING_DIR}/${program}.1" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip failed on ${program}.1")
  endif()
  file(INSTALL "${TTT_STAGING_DIR}/${program}.1.gz" DESTINATION "${TTT_MANDIR}/man1"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endforeach()
