# Writes musket-gui.1 from `musket-gui --help`, so the man page lists exactly the options the
# program parses. Inputs: GUI (the built program), OUTPUT, VERSION.
execute_process(COMMAND "${GUI}" --help OUTPUT_VARIABLE usage RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "musket-gui --help failed: ${failed}")
endif()
string(REPLACE "\\" "\\e" usage "${usage}")
string(REPLACE "-" "\\-" usage "${usage}")
file(WRITE "${OUTPUT}" ".TH MUSKET-GUI 1 \"\" \"musket-gui ${VERSION}\" \"User Commands\"
.SH NAME
musket-gui \\- the Musket dashboard: battle and campaign odds in a window
.SH SYNOPSIS
.nf
${usage}.fi
.SH DESCRIPTION
The dashboard runs the same calculators as
.BR musket (1)
with the same options and limits, and shows their answers as tables and charts. Each result can
be exported and shows the equivalent musket command line.
.SH EXIT STATUS
0 on a normal exit; 2 on a bad command-line option or scenario file.
.SH ENVIRONMENT
.TP
.B MUSKET_DATA_DIR
The game data folder, as for
.BR musket (1).
.SH SEE ALSO
.BR musket (1)
")
