# SPDX-License-Identifier: Apache-2.0
# The include graph of include/openclaw/ (docs/design.md, "Layers"): every header is listed below,
# lowest first, with its layer. A header may include only headers listed before it (so the graph
# has no cycle and nothing includes a layer above its own), never the internals of another side
# wing, and, on the common path (every layer below the side wings), none of the heavy standard
# headers. The main header, openclaw.hpp, includes the common path only (all.hpp adds the wings).
# Each header starts with the SPDX line and #pragma once (but detail/base/macros_push.hpp and
# macros_pop.hpp, included at the top and the end of every header, which must be read each time),
# and includes macros_push.hpp first and macros_pop.hpp last.
# cmake -DINCLUDE_DIR=<include/openclaw> -P check_layers.cmake

# <header> <layer> [<wing group>], lowest first.
set(table
  "detail/base/macros_push.hpp detail_core"
  "detail/base/macros_pop.hpp detail_core"
  "config.hpp config"
  "fwd.hpp fwd"
  "error.hpp errors"
  "detail/base/checked.hpp detail_core"
  "detail/base/handle.hpp detail_core"
  "detail/base/info.hpp detail_core"
  "detail/base/map_registry.hpp detail_core"
  "detail/base/argument_gate.hpp detail_core"
  "platform.hpp objects"
  "device.hpp objects"
  "context.hpp objects"
  "wait_list.hpp objects"
  "event.hpp objects"
  "ndrange.hpp objects"
  "detail/objects/commands.hpp objects"
  "queue.hpp objects"
  "select.hpp objects"
  "detail/memory/staging.hpp memory_core"
  "detail/memory/memory.hpp memory_core"
  "mapping.hpp typed_memory"
  "buffer.hpp typed_memory"
  "params.hpp kernels"
  "detail/kernels/types.hpp kernels"
  "detail/kernels/source_parser.hpp kernels"
  "detail/kernels/kernel_args.hpp kernels"
  "kernel.hpp kernels"
  "dynamic_kernel.hpp kernels"
  "program.hpp kernels"
  "pixel.hpp kernels"
  "profile.hpp wing profile"
  "pinned.hpp wing pinned"
  "svm.hpp wing svm"
  "sampler.hpp wing image"
  "image.hpp wing image"
  "signature.hpp wing signature"
  "async.hpp wing async"
  "detail/wings/sha256.hpp wing cache"
  "detail/wings/cache.hpp wing cache"
  "cache.hpp wing cache"
  "split.hpp wing split"
  "graph.hpp wing graph"
  "pool.hpp wing pool"
  "external.hpp wing external"
  "detail/wings/algorithm_core.hpp wing algorithm"
  "algorithm.hpp wing algorithm"
  "openclaw.hpp umbrella"
  "all.hpp umbrella"
  "interop/clhpp.hpp interop"
  "interop/mpi.hpp interop")
# Side wings that build on another wing's public header: typing kernels from their source makes
# image parameters; the algorithms' operators are typed by the signature parser, and their engine
# takes a call's scratch memory from a MemoryPool.
set(wing_uses "signature->image.hpp" "algorithm->signature.hpp" "algorithm->pool.hpp")
# Standard headers the common path does without (each costs thousands of lines in every unit).
set(heavy algorithm any bitset cmath deque filesystem format fstream functional future iomanip
  iostream list locale map numeric random ranges regex set sstream unordered_map unordered_set
  valarray variant coroutine)
set(common_layers config fwd errors detail_core objects memory_core typed_memory kernels)

set(failures 0)
macro(failure text)
  message("${text}")
  math(EXPR failures "${failures} + 1")
endmacro()

# check_heavy(<who> <layer> <standard header>): a failure when a file of a common-path layer
# includes one of the heavy standard headers.
macro(check_heavy who check_layer included_header)
  list(FIND common_layers "${check_layer}" on_common_path)
  list(FIND heavy "${included_header}" is_heavy)
  if(NOT on_common_path EQUAL -1 AND NOT is_heavy EQUAL -1)
    failure("${who} includes <${included_header}>: move what needs it to a side header, or do "
            "without it")
  endif()
endmacro()

set(rank 0)
foreach(entry IN LISTS table)
  string(REPLACE " " ";" fields "${entry}")
  list(GET fields 0 header)
  list(GET fields 1 layer)
  list(LENGTH fields n)
  set(group "")
  if(n GREATER 2)
    list(GET fields 2 group)
  endif()
  set(rank_of_${header} ${rank})
  set(layer_of_${header} ${layer})
  set(group_of_${header} "${group}")
  math(EXPR rank "${rank} + 1")
endforeach()

file(GLOB_RECURSE headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/*.hpp")
foreach(header IN LISTS headers)
  if(NOT DEFINED rank_of_${header})
    failure("${header}: not in the layer table of tests/layers/check_layers.cmake (add it, and to docs/design.md)")
  endif()
endforeach()

# The floors of detail/: each internal header sits in the folder of its layer, so its path says
# what it may include (docs/design.md, "Layers").
set(floor_base detail_core)
set(floor_objects objects)
set(floor_memory memory_core)
set(floor_kernels kernels)
set(floor_wings wing)
foreach(entry IN LISTS table)
  string(REPLACE " " ";" fields "${entry}")
  list(GET fields 0 header)
  list(GET fields 1 layer)
  if(header MATCHES "^detail/")
    set(floor "")
    if(header MATCHES "^detail/([a-z]+)/[^/]+$")
      set(floor "${CMAKE_MATCH_1}")
    endif()
    if(NOT floor OR NOT DEFINED floor_${floor})
      failure("${header}: an internal header lives in detail/<floor>/ (base, objects, memory, "
              "kernels, wings)")
    elseif(NOT floor_${floor} STREQUAL layer)
      failure("${header} is in the ${layer} layer but in detail/${floor}/, the folder of the "
              "${floor_${floor}} layer")
    endif()
  endif()
endforeach()

foreach(entry IN LISTS table)
  string(REPLACE " " ";" fields "${entry}")
  list(GET fields 0 header)
  if(NOT EXISTS "${INCLUDE_DIR}/${header}")
    failure("${header}: listed in the layer table but missing")
    continue()
  endif()
  file(READ "${INCLUDE_DIR}/${header}" text)
  if(header MATCHES "^detail/base/macros_(push|pop)\\.hpp$")
    if(text MATCHES "#pragma once")
      failure("${header}: must have no include guard (every header includes it)")
    endif()
  elseif(NOT text MATCHES "^// SPDX-License-Identifier: Apache-2.0\n#pragma once\n#include <openclaw/detail/base/macros_push\\.hpp>\n")
    failure("${header}: does not start with the SPDX line, #pragma once and "
            "#include <openclaw/detail/base/macros_push.hpp>")
  elseif(NOT text MATCHES "\n#include <openclaw/detail/base/macros_pop\\.hpp>\n$")
    failure("${header}: does not end with #include <openclaw/detail/base/macros_pop.hpp>")
  endif()
  set(layer ${layer_of_${header}})
  set(group "${group_of_${header}}")
  string(REGEX MATCHALL "\n#include <[^>]+>" includes "${text}")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "\n#include <([^>]+)>" "\\1" included "${line}")
    if(included MATCHES "^openclaw/impl/(.*)\\.ipp$")
      # A header includes its own bodies (header-only mode), no other header's.
      if(NOT "${CMAKE_MATCH_1}.hpp" STREQUAL header)
        failure("${header} includes <${included}>: a header includes only its own impl/ file")
      endif()
    elseif(included MATCHES "^openclaw/(.*)$")
      set(target "${CMAKE_MATCH_1}")
      if(NOT DEFINED rank_of_${target})
        failure("${header} includes <openclaw/${target}>, which is not in the table")
        continue()
      endif()
      if(NOT rank_of_${target} LESS rank_of_${header})
        failure("${header} (${layer}) includes <openclaw/${target}> (${layer_of_${target}}), which "
                "is not below it: an upward include or a cycle")
      endif()
      if(header STREQUAL "openclaw.hpp")
        list(FIND common_layers "${layer_of_${target}}" common)
        if(common EQUAL -1)
          failure("openclaw.hpp includes <openclaw/${target}> (${layer_of_${target}}): the main "
                  "header holds the common path only; side wings go in all.hpp")
        endif()
      endif()
      set(target_group "${group_of_${target}}")
      if(target_group AND NOT target_group STREQUAL group)
        list(FIND wing_uses "${group}->${target}" allowed)
        if(target MATCHES "^detail/" OR allowed EQUAL -1)
          if(NOT layer STREQUAL "umbrella" AND NOT layer STREQUAL "interop")
            failure("${header} includes <openclaw/${target}> of the ${target_group} wing: side "
                    "wings include the layers below them, not each other")
          endif()
        endif()
      endif()
    else()
      check_heavy("${header} (${layer}, on the common path)" "${layer}" "${included}")
    endif()
  endforeach()
endforeach()

# The bodies (impl/<header path>.ipp, docs/design.md "Build modes"): each belongs to a header of
# the table, which includes it at its end, and includes nothing above that header.
file(GLOB_RECURSE bodies RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/impl/*")
foreach(body IN LISTS bodies)
  if(NOT body MATCHES "^impl/(.*)\\.ipp$")
    failure("${body}: impl/ holds only <header path>.ipp files")
    continue()
  endif()
  set(header "${CMAKE_MATCH_1}.hpp")
  if(NOT DEFINED rank_of_${header})
    failure("${body}: no header ${header} in the table for these bodies")
    continue()
  endif()
  file(READ "${INCLUDE_DIR}/${header}" header_text)
  string(FIND "${header_text}" "\n#if OPENCLAW_HEADER_ONLY\n#include <openclaw/${body}>\n#endif\n"
         at)
  if(at EQUAL -1)
    failure("${header} does not end with its bodies: #if OPENCLAW_HEADER_ONLY / #include "
            "<openclaw/${body}> / #endif")
  endif()
  file(READ "${INCLUDE_DIR}/${body}" text)
  if(NOT text MATCHES "^// SPDX-License-Identifier: Apache-2.0\n#pragma once\n")
    failure("${body}: does not start with the SPDX line and #pragma once")
  endif()
  string(REGEX MATCHALL "\n#include <[^>]+>" includes "${text}")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "\n#include <([^>]+)>" "\\1" included "${line}")
    if(included MATCHES "^openclaw/(.*)$")
      set(target "${CMAKE_MATCH_1}")
      if(NOT DEFINED rank_of_${target} OR rank_of_${target} GREATER rank_of_${header})
        failure("${body} includes <${included}>, which is not at or below ${header}")
      endif()
    else()
      # Header-only builds include the bodies with their header: the same rule.
      check_heavy("${body} (bodies of ${header}, on the common path)" "${layer_of_${header}}"
                  "${included}")
    endif()
  endforeach()
endforeach()

if(failures EQUAL 0)
  list(LENGTH table count)
  list(LENGTH bodies body_count)
  message("layers: ok (${count} headers, ${body_count} impl files)")
else()
  message(FATAL_ERROR "layers: ${failures} failure(s)")
endif()
