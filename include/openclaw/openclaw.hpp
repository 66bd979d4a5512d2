// SPDX-License-Identifier: Apache-2.0
#pragma once
// The umbrella header: everything public in openclaw, the side headers included (images, SVM,
// pinned memory, coroutines, kernel signatures from source, splitting ranges across devices). A
// unit may include less: each header includes what it needs (docs/design.md, "Layers"). One side
// header is left out on purpose: <openclaw/cache.hpp>, the on-disk binary cache, switches
// Program::build to consult the cache in the whole program and compiles its file and hash code
// into every unit that includes it, so a program that wants the cache includes it in one unit.

#include <openclaw/async.hpp>
#include <openclaw/buffer.hpp>
#include <openclaw/config.hpp>
#include <openclaw/context.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/external.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/graph.hpp>
#include <openclaw/image.hpp>
#include <openclaw/kernel.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/ndrange.hpp>
#include <openclaw/params.hpp>
#include <openclaw/pinned.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/pool.hpp>
#include <openclaw/program.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/select.hpp>
#include <openclaw/signature.hpp>
#include <openclaw/split.hpp>
#include <openclaw/svm.hpp>
