# Board support that ships with tband, for trying firmware without hardware:
#
#   tband_add_board(<executable> mps2_an386)
#     QEMU's mps2-an386 (Cortex-M4): startup code and vector table, UART0, a
#     64-bit clock from the FPGAIO counter, SysTick, the dual timer and a
#     semihosting exit (board.h), linked with the board's memory map. The
#     executable provides main() and the handlers board.h names. Run it with
#       qemu-system-arm -M mps2-an386 -nographic -semihosting-config enable=on,target=native
#                       -serial file:trace.bin -kernel <executable>
include_guard(GLOBAL)

function(tband_add_board target board)
  get_property(runtime_dir GLOBAL PROPERTY TBAND_RUNTIME_DIR)
  set(dir ${runtime_dir}/boards/${board})
  if(NOT EXISTS ${dir}/board.h)
    file(GLOB known RELATIVE ${runtime_dir}/boards ${runtime_dir}/boards/*)
    message(FATAL_ERROR "tband_add_board(${target} ${board}): no such board (known: ${known})")
  endif()
  if(NOT CMAKE_C_COMPILER MATCHES "arm-none-eabi")
    message(FATAL_ERROR "tband_add_board(${target} ${board}): needs the Cortex-M4 toolchain "
      "(-DCMAKE_TOOLCHAIN_FILE=<tband>/lib/cmake/tband/toolchains/arm-none-eabi-cortex-m4.cmake)")
  endif()
  target_sources(${target} PRIVATE ${dir}/board.c ${dir}/startup.c)
  target_include_directories(${target} PRIVATE ${dir})
  # The startup code's copy loops must not become memcpy/memset calls: there is no C library.
  set_source_files_properties(${dir}/startup.c TARGET_DIRECTORY ${target}
    PROPERTIES COMPILE_OPTIONS -fno-tree-loop-distribute-patterns)
  # The board's startup code and linker script replace the C library's.
  target_link_options(${target} PRIVATE -nostdlib -T ${dir}/${board}.ld)
  target_link_libraries(${target} PRIVATE gcc)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${dir}/${board}.ld)
endfunction()
