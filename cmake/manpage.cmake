# manpage.cmake - writes warplint.1 (roff) from the text of `warplint --help`
# and the rule docs (rules/*.md), so that the man page says what the program
# and the docs say. Run by the build: cmake -DEXE=... -DRULES=... -DVERSION=...
# -DOUT=... -P manpage.cmake
execute_process(COMMAND ${EXE} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --help failed (${rc})")
endif()

# Text shown as is in a .nf block: backslashes escaped, lines starting with
# a control character (. or ') protected with \&.
function(roff_literal text outvar)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${outvar} "${text}" PARENT_SCOPE)
endfunction()

roff_literal("${help}" help_roff)
set(man ".TH WARPLINT 1 \"\" \"warplint ${VERSION}\" \"User Commands\"\n")
string(APPEND man ".SH NAME\nwarplint \\- find legacy warp-synchronous code in CUDA sources\n")
string(APPEND man ".SH SYNOPSIS\n.B warplint\n[\\fIoptions\\fR] \\fIfile-or-directory\\fR... [\\fB\\-\\-\\fR \\fIclang-arguments\\fR]\n")
string(APPEND man ".SH DESCRIPTION\nThe text below is the output of \\fBwarplint \\-\\-help\\fR.\n.PP\n.nf\n${help_roff}.fi\n")
string(APPEND man ".SH RULES\nEach rule's documentation, as \\fBwarplint \\-\\-explain\\fR \\fIRULE\\fR prints it.\n")
file(GLOB docs "${RULES}/*.md")
list(SORT docs)
foreach(doc ${docs})
  get_filename_component(id "${doc}" NAME_WE)
  file(READ "${doc}" md)
  roff_literal("${md}" md_roff)
  string(APPEND man ".SS ${id}\n.nf\n${md_roff}\n.fi\n")
endforeach()
string(APPEND man ".SH EXIT STATUS\n0: no findings; 1: findings; 2: usage error, bad configuration or an input that could not be analyzed.\n")
string(APPEND man ".SH SEE ALSO\n\\fBclang-tidy\\fR(1), \\fBclang-apply-replacements\\fR(1)\n")
file(WRITE "${OUT}" "${man}")
