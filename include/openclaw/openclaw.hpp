// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The main header: the common path of openclaw, what a program that builds kernels and moves
// buffers needs (platforms, devices, contexts, queues, events, buffers and their views and maps,
// programs, kernels and their parameters, device selection). The side wings (images, SVM, pinned
// memory, coroutines, kernel signatures from source, splitting ranges, command graphs, pools,
// external memory) are opt-in headers, so that a unit pays only for what it uses:
// <openclaw/all.hpp> includes every one of them (docs/design.md, "Layers").

#include <openclaw/buffer.hpp>
#include <openclaw/config.hpp>
#include <openclaw/context.hpp>
#include <openclaw/device.hpp>
#include <openclaw/dynamic_kernel.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/kernel.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/ndrange.hpp>
#include <openclaw/params.hpp>
#include <openclaw/pixel.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/program.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/select.hpp>

#include <openclaw/detail/base/macros_pop.hpp>
