# The web build (scripts/web configures it with emcmake into build-web/): the libraries every
# other build finds on the host are made here for Emscripten instead. The header-only ones
# (Boost.Math and Multiprecision, nlohmann/json, fmt, PCG) are Debian's own headers, seen through
# a folder of links so that no other host header is on the path; Boost.Program_options, the one
# compiled library the CLI needs, is compiled from its sources (MUSKET_PROGRAM_OPTIONS_SOURCE: the
# libs/program_options folder of Debian's boost1.74 source package, which scripts/web fetches).
# No cairo (cli/chart.cpp is left out: web/no_chart.cpp) and no threads (every engine runs on its
# one-thread path; cli/command.hpp's max_threads).
# Native WebAssembly exceptions: without them every throw (each bad input) would abort.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

set(MUSKET_WEB_INCLUDE "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${MUSKET_WEB_INCLUDE}")
foreach(header boost nlohmann fmt pcg_random.hpp pcg_extras.hpp pcg_uint128.hpp)
  if(NOT EXISTS "/usr/include/${header}")
    message(FATAL_ERROR "the web build needs /usr/include/${header} (scripts/bootstrap installs it)")
  endif()
  file(CREATE_LINK "/usr/include/${header}" "${MUSKET_WEB_INCLUDE}/${header}" SYMBOLIC)
endforeach()

add_library(musket_web_headers INTERFACE)
target_include_directories(musket_web_headers SYSTEM INTERFACE "${MUSKET_WEB_INCLUDE}")
# fmt compiled into each user (its header-only mode); Boost told it has no threads.
target_compile_definitions(musket_web_headers INTERFACE FMT_HEADER_ONLY BOOST_DISABLE_THREADS)
add_library(Boost::headers ALIAS musket_web_headers)
add_library(nlohmann_json::nlohmann_json ALIAS musket_web_headers)
add_library(fmt::fmt ALIAS musket_web_headers)
add_library(Threads::Threads INTERFACE IMPORTED)
set(PCG_INCLUDE_DIR "${MUSKET_WEB_INCLUDE}")

set(MUSKET_PROGRAM_OPTIONS_SOURCE "" CACHE PATH "libs/program_options of the Boost 1.74 sources")
file(GLOB program_options_sources "${MUSKET_PROGRAM_OPTIONS_SOURCE}/src/*.cpp")
list(FILTER program_options_sources EXCLUDE REGEX "winmain\\.cpp$")
if(NOT program_options_sources)
  message(FATAL_ERROR "MUSKET_PROGRAM_OPTIONS_SOURCE='${MUSKET_PROGRAM_OPTIONS_SOURCE}' holds no src/*.cpp "
                      "(scripts/web fetches Debian's boost1.74 sources and sets it)")
endif()
add_library(musket_program_options STATIC ${program_options_sources})
target_link_libraries(musket_program_options PUBLIC musket_web_headers)
# Boost's own code, compiled as it is: its warnings are not ours to fix.
target_compile_options(musket_program_options PRIVATE -w)
set_target_properties(musket_program_options PROPERTIES UNITY_BUILD OFF)
add_library(Boost::program_options ALIAS musket_program_options)
