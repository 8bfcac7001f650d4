# The firmware side of tband for a CMake project: the tracer's sources and the
# functions that build them. Used by tband's own build (target/CMakeLists.txt)
# and by the installed package (tbandConfig.cmake), with TBAND_RUNTIME_DIR set
# to the folder that holds include/, src/ and ports/ first.
#
#   tband_add_firmware(<target> CONFIG_DIR <dir> PORT_DIR <dir>
#                      [SCHEMA <file or folder>...] [PORT_SOURCES <file>...]
#                      [INCLUDE_DIRS <dir>...] [BOARD <board>])
#     Generates the encoder and the hooks of your schema (composed with
#     tband's built-in groups; without SCHEMA, tband's own) into
#     <build>/tband_generated/<key>/ (once per schema), builds the tracer for
#     your tband_config.h (CONFIG_DIR) and tband_port.h (PORT_DIR, with the
#     sources it needs in PORT_SOURCES, and the folders those headers include
#     in INCLUDE_DIRS) as the static library <target>_tband, and links
#     <target> to it. <target> then includes tband.h and tband_user_events.h.
#     BOARD adds one of tband's boards (tband_add_board(), TbandBoards.cmake)
#     to <target> and its board.h to the tracer's include path. The schema
#     descriptor, for `tband dump|conv --schema`, is the target property
#     TBAND_DESCRIPTOR.
#
#   tband_add_runtime(<name> CONFIG_DIR <dir> PORT_DIR <dir>
#                     [GENERATED <library from tband_generate()>] [PORT_SOURCES <file>...])
#     The tracer alone, as the static library <name>, from code generated
#     elsewhere; without GENERATED, tband's own schema (in tband's build).
#     (GENERATED_DIR <generator output> GENERATE_TARGET <target> instead of
#     GENERATED still works.)
include_guard(GLOBAL)

get_filename_component(TBAND_RUNTIME_DIR ${TBAND_RUNTIME_DIR} ABSOLUTE)
set(TBAND_RUNTIME_SOURCES
  ${TBAND_RUNTIME_DIR}/src/hooks.cpp
  ${TBAND_RUNTIME_DIR}/src/freertos_hooks.cpp
  ${TBAND_RUNTIME_DIR}/src/core_reports.cpp
  ${TBAND_RUNTIME_DIR}/src/metadata_buffer.cpp
  ${TBAND_RUNTIME_DIR}/src/tracing_state.cpp
  ${TBAND_RUNTIME_DIR}/src/backend_streaming.cpp
  ${TBAND_RUNTIME_DIR}/src/backend_snapshot.cpp
  ${TBAND_RUNTIME_DIR}/src/backend_post_mortem.cpp
  ${TBAND_RUNTIME_DIR}/src/control.cpp
  ${TBAND_RUNTIME_DIR}/src/filter.cpp)
set(TBAND_PORTS_DIR ${TBAND_RUNTIME_DIR}/ports)
set(TBAND_BOARDS_DIR ${TBAND_RUNTIME_DIR}/boards)
# The functions read these from global properties, so that they work from any
# directory scope (a project that add_subdirectory()s tband calls them from
# its own scope, where tband's variables are not set).
set_property(GLOBAL PROPERTY TBAND_RUNTIME_DIR "${TBAND_RUNTIME_DIR}")
set_property(GLOBAL PROPERTY TBAND_RUNTIME_SOURCES "${TBAND_RUNTIME_SOURCES}")

include(${CMAKE_CURRENT_LIST_DIR}/TbandBoards.cmake)

function(tband_add_runtime name)
  cmake_parse_arguments(ARG "" "CONFIG_DIR;PORT_DIR;GENERATED;GENERATED_DIR;GENERATE_TARGET" "PORT_SOURCES" ${ARGN})
  get_property(TBAND_RUNTIME_DIR GLOBAL PROPERTY TBAND_RUNTIME_DIR)
  get_property(TBAND_RUNTIME_SOURCES GLOBAL PROPERTY TBAND_RUNTIME_SOURCES)
  if(NOT ARG_CONFIG_DIR OR NOT ARG_PORT_DIR)
    message(FATAL_ERROR "tband_add_runtime(${name}): CONFIG_DIR (tband_config.h) and PORT_DIR (tband_port.h) are required")
  endif()
  if(ARG_GENERATED_DIR)
    set(gen_target ${ARG_GENERATED_DIR}/target)
  else()
    if(NOT ARG_GENERATED)
      set(ARG_GENERATED tband_generated)  # tband's own schema, in tband's build
    endif()
    if(NOT TARGET ${ARG_GENERATED})
      message(FATAL_ERROR "tband_add_runtime(${name}): give GENERATED (a library from tband_generate()), "
        "or use tband_add_firmware(), which generates it")
    endif()
    get_target_property(gen_dir ${ARG_GENERATED} TBAND_GENERATED_DIR)
    set(gen_target ${gen_dir}/target)
  endif()
  set_source_files_properties(${gen_target}/tband_user_events.cpp PROPERTIES GENERATED TRUE)
  add_library(${name} STATIC ${TBAND_RUNTIME_SOURCES} ${gen_target}/tband_user_events.cpp ${ARG_PORT_SOURCES})
  target_include_directories(${name} PUBLIC ${TBAND_RUNTIME_DIR}/include ${ARG_CONFIG_DIR} ${ARG_PORT_DIR})
  if(ARG_GENERATED)
    target_link_libraries(${name} PUBLIC ${ARG_GENERATED})
  else()
    target_include_directories(${name} PUBLIC ${gen_target})
  endif()
  target_include_directories(${name} PRIVATE ${TBAND_RUNTIME_DIR}/src)
  target_compile_features(${name} PUBLIC cxx_std_17)
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti>)
  if(PROJECT_NAME STREQUAL "tband" AND TARGET tband_warnings)  # tband's own build: its warnings as errors
    target_link_libraries(${name} PRIVATE tband_warnings)
  endif()
  if(ARG_GENERATE_TARGET)
    add_dependencies(${name} ${ARG_GENERATE_TARGET})
  endif()
endfunction()

function(tband_add_firmware target)
  cmake_parse_arguments(ARG "" "CONFIG_DIR;PORT_DIR;BOARD" "SCHEMA;PORT_SOURCES;INCLUDE_DIRS" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tband_add_firmware(${target}): no such target; add_executable() or add_library() it first")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tband_add_firmware(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  # One generation per schema, shared by every firmware built from it.
  set(schema_paths "")
  foreach(path IN LISTS ARG_SCHEMA)
    get_filename_component(path ${path} ABSOLUTE)
    list(APPEND schema_paths ${path})
  endforeach()
  string(SHA1 key "${schema_paths}")
  string(SUBSTRING ${key} 0 10 key)
  set(gen ${CMAKE_BINARY_DIR}/tband_generated/${key})
  set(generate tband_generate_${key})
  set(generated tband_generated_${key})
  if(NOT TARGET ${generate})
    if(ARG_SCHEMA)
      tband_generate(SCHEMA ${schema_paths} OUT_DIR ${gen} TARGET ${generate} LIBRARY ${generated})
    else()
      get_property(builtin_schema_dir GLOBAL PROPERTY TBAND_BUILTIN_SCHEMA_DIR)
      tband_generate(SCHEMA_DIR ${builtin_schema_dir} OUT_DIR ${gen} TARGET ${generate} LIBRARY ${generated})
    endif()
  endif()
  tband_add_runtime(${target}_tband CONFIG_DIR ${ARG_CONFIG_DIR} PORT_DIR ${ARG_PORT_DIR}
    GENERATED ${generated} PORT_SOURCES ${ARG_PORT_SOURCES})
  if(ARG_INCLUDE_DIRS)
    target_include_directories(${target}_tband PUBLIC ${ARG_INCLUDE_DIRS})
  endif()
  target_link_libraries(${target} PRIVATE ${target}_tband)
  set_target_properties(${target} PROPERTIES TBAND_DESCRIPTOR ${gen}/descriptor/tband_schema.json)
  if(ARG_BOARD)
    tband_add_board(${target} ${ARG_BOARD})
    get_property(runtime_dir GLOBAL PROPERTY TBAND_RUNTIME_DIR)
    target_include_directories(${target}_tband PUBLIC ${runtime_dir}/boards/${ARG_BOARD})
  endif()
endfunction()
