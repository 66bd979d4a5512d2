// SPDX-License-Identifier: Apache-2.0
#pragma once
// The umbrella header: everything public in openclaw.

#include <openclaw/async.hpp>
#include <openclaw/buffer.hpp>
#include <openclaw/config.hpp>
#include <openclaw/context.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/image.hpp>
#include <openclaw/kernel.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/ndrange.hpp>
#include <openclaw/params.hpp>
#include <openclaw/pinned.hpp>
#include <openclaw/platform.hpp>
#include <openclaw/program.hpp>
#include <openclaw/queue.hpp>
#include <openclaw/select.hpp>
#include <openclaw/signature.hpp>
#include <openclaw/split.hpp>
#include <openclaw/svm.hpp>
