# Finds a Python 3 that can import Jinja2 and PyYAML (the generator's only
# dependencies) and stores it in TBAND_PYTHON.
if(NOT TBAND_PYTHON)
  find_program(_tband_python_on_path NAMES python3)
  foreach(candidate IN ITEMS ${_tband_python_on_path} /usr/bin/python3)
    if(candidate)
      execute_process(
        COMMAND ${candidate} -c "import jinja2, yaml"
        RESULT_VARIABLE _tband_python_ok OUTPUT_QUIET ERROR_QUIET)
      if(_tband_python_ok EQUAL 0)
        set(TBAND_PYTHON ${candidate} CACHE FILEPATH "Python 3 with Jinja2 and PyYAML")
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT TBAND_PYTHON)
  message(FATAL_ERROR
    "No Python 3 with Jinja2 and PyYAML found. Install them with "
    "`apt-get install -y python3-jinja2 python3-yaml`, or pass -DTBAND_PYTHON=/path/to/python3.")
endif()
message(STATUS "tband: generator runs with ${TBAND_PYTHON}")

# tband_python_lines(<var> <command>...): runs a command at configure time
# (the generator listing its files, a test lister) and sets <var> to the lines
# it prints; a failure stops the configure step with the command's message.
function(tband_python_lines var)
  execute_process(
    COMMAND ${ARGN}
    OUTPUT_VARIABLE listed
    ERROR_VARIABLE errors
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${command} failed:\n${errors}")
  endif()
  string(REPLACE "\n" ";" listed "${listed}")
  list(FILTER listed EXCLUDE REGEX "^$")
  set(${var} ${listed} PARENT_SCOPE)
endfunction()
