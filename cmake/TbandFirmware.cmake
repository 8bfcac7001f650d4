# The firmware side of tband for a CMake project: the tracer's sources and the
# functions that build them. Used by tband's own build (target/CMakeLists.txt)
# and by the installed package (tbandConfig.cmake), with TBAND_RUNTIME_DIR set
# to the folder that holds include/, src/ and ports/ first.
#
#   tband_add_firmware(<target> CONFIG_DIR <dir> PORT_DIR <dir>
#                      [SCHEMA <file or folder>...] [PORT_SOURCES <file>...])
#     Generates the encoder and the hooks of your schema (composed with
#     tband's built-in groups; without SCHEMA, tband's own) into
#     <build>/tband/<target>/, builds the tracer for your tband_config.h
#     (CONFIG_DIR) and tband_port.h (PORT_DIR, with the sources it needs in
#     PORT_SOURCES) as the static library <target>_tband, and links <target>
#     to it. <target> then includes tband.h and tband_user_events.h. The
#     schema descriptor, for `tband dump|conv --schema`, is the target
#     property TBAND_DESCRIPTOR.
#
#   tband_add_runtime(<name> CONFIG_DIR <dir> PORT_DIR <dir>
#                     [GENERATED_DIR <generator output> GENERATE_TARGET <target>] [PORT_SOURCES <file>...])
#     The tracer alone, as the static library <name>, from code generated
#     elsewhere; without GENERATED_DIR, tband's own schema (in tband's build).
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
  ${TBAND_RUNTIME_DIR}/src/backend_post_mortem.cpp)
set(TBAND_PORTS_DIR ${TBAND_RUNTIME_DIR}/ports)

function(tband_add_runtime name)
  cmake_parse_arguments(ARG "" "CONFIG_DIR;PORT_DIR;GENERATED_DIR;GENERATE_TARGET" "PORT_SOURCES" ${ARGN})
  if(NOT ARG_CONFIG_DIR OR NOT ARG_PORT_DIR)
    message(FATAL_ERROR "tband_add_runtime(${name}): CONFIG_DIR (tband_config.h) and PORT_DIR (tband_port.h) are required")
  endif()
  if(ARG_GENERATED_DIR)
    set(gen_target ${ARG_GENERATED_DIR}/target)
  else()
    set(gen_target ${PROJECT_BINARY_DIR}/generated/target)
    set(ARG_GENERATE_TARGET tband_generate)
  endif()
  set_source_files_properties(${gen_target}/tband_user_events.cpp PROPERTIES GENERATED TRUE)
  add_library(${name} STATIC ${TBAND_RUNTIME_SOURCES} ${gen_target}/tband_user_events.cpp ${ARG_PORT_SOURCES})
  target_include_directories(${name} PUBLIC ${TBAND_RUNTIME_DIR}/include ${ARG_CONFIG_DIR} ${ARG_PORT_DIR} ${gen_target})
  target_include_directories(${name} PRIVATE ${TBAND_RUNTIME_DIR}/src)
  target_compile_features(${name} PUBLIC cxx_std_17)
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti>)
  if(TARGET tband_warnings)  # tband's own build: its warnings as errors
    target_link_libraries(${name} PRIVATE tband_warnings)
  endif()
  if(ARG_GENERATE_TARGET)
    add_dependencies(${name} ${ARG_GENERATE_TARGET})
  endif()
endfunction()

function(tband_add_firmware target)
  cmake_parse_arguments(ARG "" "CONFIG_DIR;PORT_DIR" "SCHEMA;PORT_SOURCES" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tband_add_firmware(${target}): no such target; add_executable() or add_library() it first")
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/tband/${target})
  if(ARG_SCHEMA)
    tband_generate(SCHEMA ${ARG_SCHEMA} OUT_DIR ${gen} TARGET ${target}_tband_generate)
  else()
    tband_generate(SCHEMA_DIR ${TBAND_BUILTIN_SCHEMA_DIR} OUT_DIR ${gen} TARGET ${target}_tband_generate)
  endif()
  tband_add_runtime(${target}_tband CONFIG_DIR ${ARG_CONFIG_DIR} PORT_DIR ${ARG_PORT_DIR}
    GENERATED_DIR ${gen} GENERATE_TARGET ${target}_tband_generate PORT_SOURCES ${ARG_PORT_SOURCES})
  target_link_libraries(${target} PRIVATE ${target}_tband)
  set_target_properties(${target} PROPERTIES TBAND_DESCRIPTOR ${gen}/descriptor/tband_schema.json)
endfunction()
