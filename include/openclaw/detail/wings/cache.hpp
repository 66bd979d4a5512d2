// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The binary cache's types and functions (BinaryCache, its keys and entries), without the
// static initializer that plugs it into Program::build: <openclaw/cache.hpp> adds that, so the
// compiled library can hold the cache's bodies without turning the cache on in every program.

#include <openclaw/detail/wings/sha256.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/program.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// What a BinaryCache did so far (counted over every copy of it).
struct CacheStats {
    std::size_t hits = 0;    ///< builds served from the cache
    std::size_t misses = 0;  ///< builds that found no entry and compiled
    std::size_t stores = 0;  ///< entries written
    std::size_t rejected =
        0;  ///< entries ignored: corrupt, of another format, or refused by the driver
    std::size_t uncacheable = 0;  ///< builds not cached: an `#include` openclaw could not find
};

namespace detail {

/// The key of one build and what it was made from.
struct CacheKey {
    Sha256::Digest digest{};
    std::string name;  // hex digest: the entry's file name
};

/// What an entry holds: one binary and one build log per device, in the context's order.
struct CachedBuild {
    std::vector<Binary> binaries;
    std::vector<std::string> logs;
};

inline std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.string().c_str(), "rb");
    if (file == nullptr) {
        return std::nullopt;
    }
    std::string data;
    char chunk[65536];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
        data.append(chunk, n);
    }
    const bool ok = std::ferror(file) == 0;
    std::fclose(file);
    if (!ok) {
        return std::nullopt;
    }
    return data;
}

/// The files `text` #includes, found in `dirs` (and, for "quoted" names, the including file's
/// own directory and the working directory), hashed into `hash` recursively. False when one
/// cannot be found: the build then is not cached, since a change to that file could not be seen.
inline bool hash_includes(std::string_view text, const std::filesystem::path& own_dir,
                          const std::vector<std::filesystem::path>& dirs, Sha256& hash,
                          std::vector<std::filesystem::path>& seen, int depth) {
    if (depth > 64) {
        return false;
    }
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        std::size_t i = line.find_first_not_of(" \t");
        if (i == std::string_view::npos || line[i] != '#') {
            continue;
        }
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string_view::npos || line.substr(i, 7) != "include") {
            continue;
        }
        i = line.find_first_not_of(" \t", i + 7);
        if (i == std::string_view::npos || (line[i] != '"' && line[i] != '<')) {
            return false;  // a macro as the file name: its value is unknown here
        }
        const char close = line[i] == '"' ? '"' : '>';
        const std::size_t stop = line.find(close, i + 1);
        if (stop == std::string_view::npos) {
            return false;
        }
        const std::filesystem::path name(std::string(line.substr(i + 1, stop - i - 1)));
        std::vector<std::filesystem::path> candidates;
        if (name.is_absolute()) {
            candidates.push_back(name);
        } else {
            if (close == '"' && !own_dir.empty()) {
                candidates.push_back(own_dir / name);
            }
            for (const auto& dir : dirs) {
                candidates.push_back(dir / name);
            }
            if (close == '"') {
                candidates.push_back(name);  // relative to the working directory
            }
        }
        bool found = false;
        for (const auto& candidate : candidates) {
            std::error_code ignored;
            if (!std::filesystem::is_regular_file(candidate, ignored)) {
                continue;
            }
            const std::filesystem::path canonical =
                std::filesystem::weakly_canonical(candidate, ignored);
            found = true;
            hash.field(canonical.string());
            if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) {
                break;  // already hashed (and followed)
            }
            seen.push_back(canonical);
            const auto content = read_file(candidate);
            if (!content) {
                return false;
            }
            hash.field(*content);
            if (!hash_includes(*content, canonical.parent_path(), dirs, hash, seen, depth + 1)) {
                return false;
            }
            break;
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

inline void put_u64(std::string& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        out += static_cast<char>(static_cast<std::uint8_t>(value >> (8 * i)));
    }
}

inline bool get_u64(std::string_view& in, std::uint64_t& value) {
    if (in.size() < 8) {
        return false;
    }
    value = 0;
    for (int i = 0; i < 8; ++i) {
        value |= std::uint64_t{static_cast<std::uint8_t>(in[static_cast<std::size_t>(i)])}
                 << (8 * i);
    }
    in.remove_prefix(8);
    return true;
}

inline constexpr std::string_view cache_magic = "OPENCLAW-BINARIES-1\n";

}  // namespace detail

/// Program binaries on disk, shared by the processes that use the same directory. Program::build
/// uses the one BuildOptions names, by default BinaryCache::user_default(), which is off unless
/// the environment turns it on (see docs/programs.md). Reading and writing never make a build fail:
/// an entry that cannot be read or written is a miss, and an entry that is corrupt, of another
/// format, or refused by the driver is ignored and replaced by the next successful build.
template <>
class BasicBinaryCache<0> {
  public:
    /// A cache that is off: nothing is read or written.
    BasicBinaryCache() = default;

    /// Entries in `directory` (made when the first entry is written).
    explicit BasicBinaryCache(std::filesystem::path directory)
        : state_(std::make_shared<State>(std::move(directory))) {}

    /// Where the cache lives unless told otherwise: OPENCLAW_CACHE_DIR, $XDG_CACHE_HOME/openclaw,
    /// $HOME/.cache/openclaw or %LOCALAPPDATA%/openclaw, the first that is set; empty if none is.
    static std::filesystem::path default_directory() {
        const auto from = [](const char* variable, const char* suffix) -> std::filesystem::path {
            const char* value = std::getenv(variable);
            if (value == nullptr || *value == '\0') {
                return {};
            }
            return *suffix == '\0' ? std::filesystem::path(value)
                                   : std::filesystem::path(value) / suffix;
        };
        for (auto path : {from("OPENCLAW_CACHE_DIR", ""), from("XDG_CACHE_HOME", "openclaw"),
                          from("HOME", ".cache/openclaw"), from("LOCALAPPDATA", "openclaw")}) {
            if (!path.empty()) {
                return path;
            }
        }
        return {};
    }

    /// The cache the environment asks for, read now. It is opt-in: on when OPENCLAW_CACHE is
    /// "1", "on", "yes" or "true", or when OPENCLAW_CACHE_DIR is set (and OPENCLAW_CACHE is not
    /// "0", "off", "no" or "false"), in default_directory(). Off otherwise.
    static BinaryCache from_environment() {
        if (!detail::environment_asks_for_cache()) {
            return {};
        }
        const std::filesystem::path directory = default_directory();
        if (directory.empty()) {
            return {};
        }
        return BinaryCache(directory);
    }

    /// The cache Program::build uses unless BuildOptions names another: from_environment(),
    /// read once per process (off unless the environment turns it on).
    static const BinaryCache& user_default();

    /// True when the cache is on (it has a directory).
    bool enabled() const noexcept { return static_cast<bool>(state_); }
    /// Where the entries are; empty when the cache is off.
    std::filesystem::path directory() const {
        return state_ ? state_->directory : std::filesystem::path();
    }

    /// Hits, misses and stores counted since this cache (or its copies) was made.
    CacheStats stats() const noexcept {
        CacheStats s;
        if (state_) {
            s.hits = state_->hits.load();
            s.misses = state_->misses.load();
            s.stores = state_->stores.load();
            s.rejected = state_->rejected.load();
            s.uncacheable = state_->uncacheable.load();
        }
        return s;
    }

    /// Removes every entry (and temporary file) of the directory; returns how many.
    std::size_t clear(OnError on_error = {}) const {
        std::size_t removed = 0;
        if (!state_) {
            return removed;
        }
        std::error_code code;
        for (std::filesystem::directory_iterator it(state_->directory, code), end;
             !code && it != end; it.increment(code)) {
            const auto extension = it->path().extension();
            if (extension == ".bin" || extension == ".tmp") {
                std::error_code ignored;
                removed += std::filesystem::remove(it->path(), ignored) ? 1 : 0;
            }
        }
        if (code && code != std::errc::no_such_file_or_directory) {
            detail::fail(on_error, CL_INVALID_VALUE, "BinaryCache::clear",
                         detail::concat("cannot list \"", state_->directory.string(),
                                        "\": ", code.message()));
        }
        return removed;
    }

    /// The path of the entry of `key` (for tests and tools).
    std::filesystem::path entry_path(const detail::CacheKey& key) const {
        return state_ ? state_->directory / (key.name + ".bin") : std::filesystem::path();
    }

    /// The key of a build of `source` with the final `options` for `devices`: the source, the
    /// files it includes, the options, each device's platform, name, versions and driver, and
    /// openclaw's version. nullopt (counted as uncacheable) when an `#include` cannot be found,
    /// or when a device cannot be described (the failure goes to `on_error`).
    std::optional<detail::CacheKey> key(std::string_view source, std::string_view options,
                                        const std::vector<std::string>& include_dirs,
                                        std::span<const Device> devices,
                                        OnError on_error = {}) const {
        detail::Sha256 hash;
        hash.field(detail::cache_magic);
        hash.field(detail::concat(OPENCLAW_VERSION_MAJOR, '.', OPENCLAW_VERSION_MINOR, '.',
                                  OPENCLAW_VERSION_PATCH));
        hash.field(options);
        detail::Relay step(on_error);
        for (const Device& device : devices) {
            const Platform platform = device.platform(step);
            for (const std::string& part :
                 {platform.name(step), platform.version_string(step), device.name(step),
                  device.vendor(step), device.info<CL_DEVICE_VERSION>(step),
                  device.driver_version(step)}) {
                hash.field(part);
            }
        }
        if (step.failed()) {
            count(&State::uncacheable);
            return std::nullopt;
        }
        hash.field(source);
        std::vector<std::filesystem::path> dirs(include_dirs.begin(), include_dirs.end());
        std::vector<std::filesystem::path> seen;
        if (!detail::hash_includes(source, {}, dirs, hash, seen, 0)) {
            count(&State::uncacheable);
            return std::nullopt;
        }
        detail::CacheKey key;
        key.digest = hash.finish();
        key.name = detail::Sha256::hex(key.digest);
        return key;
    }

    /// The entry of `key` if there is a sound one with `devices` binaries (counted as a hit);
    /// nullopt (a miss, or rejected when the file is not sound) otherwise.
    std::optional<detail::CachedBuild> load(const detail::CacheKey& key,
                                            std::size_t devices) const {
        if (!state_) {
            return std::nullopt;
        }
        const auto data = detail::read_file(entry_path(key));
        if (!data) {
            count(&State::misses);
            return std::nullopt;
        }
        auto build = parse(*data, key, devices);
        count(build ? &State::hits : &State::rejected);
        return build;
    }

    /// Writes the entry of `key` atomically (a temporary file renamed over the entry), so that
    /// readers in other processes see the old entry, the new one, or none, never a part.
    /// Failures (a read-only directory, a full disk) are ignored: the cache is an optimization.
    void store(const detail::CacheKey& key, const detail::CachedBuild& build) const {
        if (!state_) {
            return;
        }
        std::string data(detail::cache_magic);
        data.append(reinterpret_cast<const char*>(key.digest.data()), key.digest.size());
        detail::put_u64(data, build.binaries.size());
        for (std::size_t i = 0; i < build.binaries.size(); ++i) {
            detail::put_u64(data, build.binaries[i].size());
            data.append(reinterpret_cast<const char*>(build.binaries[i].data()),
                        build.binaries[i].size());
            const std::string& log = i < build.logs.size() ? build.logs[i] : std::string();
            detail::put_u64(data, log.size());
            data += log;
        }
        const auto checksum = detail::Sha256().update(data).finish();
        data.append(reinterpret_cast<const char*>(checksum.data()), checksum.size());

        std::error_code code;
        std::filesystem::create_directories(state_->directory, code);
        const std::filesystem::path target = entry_path(key);
        const std::filesystem::path temporary =
            state_->directory / detail::concat(key.name, '.', unique_suffix(), ".tmp");
        std::FILE* file = std::fopen(temporary.string().c_str(), "wb");
        if (file == nullptr) {
            return;
        }
        const bool written = std::fwrite(data.data(), 1, data.size(), file) == data.size();
        const bool closed = std::fclose(file) == 0;
        if (written && closed) {
            std::filesystem::rename(temporary, target, code);
            if (!code) {
                count(&State::stores);
                return;
            }
        }
        std::filesystem::remove(temporary, code);
    }

    /// Counts an entry the driver refused (clCreateProgramWithBinary or clBuildProgram failed).
    void reject() const { count(&State::rejected); }

  private:
    struct State {
        explicit State(std::filesystem::path dir) : directory(std::move(dir)) {}
        std::filesystem::path directory;
        std::atomic<std::size_t> hits{0};
        std::atomic<std::size_t> misses{0};
        std::atomic<std::size_t> stores{0};
        std::atomic<std::size_t> rejected{0};
        std::atomic<std::size_t> uncacheable{0};
        std::atomic<std::size_t> temporaries{0};
    };

    void count(std::atomic<std::size_t> State::*counter) const {
        if (state_) {
            ++((*state_).*counter);
        }
    }

    // Unique among the processes and threads writing the directory at once.
    std::string unique_suffix() const {
        const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
        const auto thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
        const auto self = reinterpret_cast<std::uintptr_t>(&thread);  // differs per process (ASLR)
        const std::string seed =
            detail::concat(now, '-', thread, '-', self, '-', ++state_->temporaries);
        return detail::Sha256::hex(detail::Sha256().update(seed).finish()).substr(0, 16);
    }

    static std::optional<detail::CachedBuild> parse(std::string_view data,
                                                    const detail::CacheKey& key,
                                                    std::size_t devices) {
        constexpr std::size_t digest_size = 32;
        if (data.size() < detail::cache_magic.size() + 2 * digest_size + 8 ||
            data.substr(0, detail::cache_magic.size()) != detail::cache_magic) {
            return std::nullopt;
        }
        const std::string_view body = data.substr(0, data.size() - digest_size);
        const auto checksum = detail::Sha256().update(body).finish();
        if (data.substr(body.size()) !=
            std::string_view(reinterpret_cast<const char*>(checksum.data()), digest_size)) {
            return std::nullopt;
        }
        std::string_view in = body.substr(detail::cache_magic.size());
        if (in.substr(0, digest_size) !=
            std::string_view(reinterpret_cast<const char*>(key.digest.data()), digest_size)) {
            return std::nullopt;
        }
        in.remove_prefix(digest_size);
        std::uint64_t count = 0;
        if (!detail::get_u64(in, count) || count != devices) {
            return std::nullopt;
        }
        detail::CachedBuild build;
        for (std::uint64_t i = 0; i < count; ++i) {
            std::uint64_t size = 0;
            if (!detail::get_u64(in, size) || size == 0 || size > in.size()) {
                return std::nullopt;
            }
            build.binaries.emplace_back(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(size));
            in.remove_prefix(size);
            if (!detail::get_u64(in, size) || size > in.size()) {
                return std::nullopt;
            }
            build.logs.emplace_back(in.substr(0, size));
            in.remove_prefix(size);
        }
        if (!in.empty()) {
            return std::nullopt;
        }
        return build;
    }

    std::shared_ptr<State> state_;
};

inline BuildOptions& BuildOptions::cache(const BinaryCache& cache) {
    cache_ = std::make_shared<const BinaryCache>(cache);
    return *this;
}

inline const BinaryCache& BuildOptions::binary_cache() const {
    return cache_ ? *cache_ : BinaryCache::user_default();
}

namespace detail {

/// What a build that missed the cache needs to store its binaries: the cache and the key.
struct CacheTicket {
    BinaryCache cache;
    CacheKey key;
};

/// Program::build's cache step: a program from a sound entry of this build, else an empty one
/// and, in `ticket`, where the build's binaries go. Never makes the build fail: an entry that
/// cannot be used is a miss (and a rejected one is replaced).
Program load_cached_build(const Context& context, std::string_view source,
                          const BuildOptions& options, const BuildOptions& effective,
                          const std::vector<Device>& devices, std::shared_ptr<const void>& ticket);
/// Keeps a fresh build's binaries and logs in the cache of `ticket` (a driver without binaries:
/// nothing to keep).
void store_build(const Program& program, const BuildOptions& options,
                 const std::shared_ptr<const void>& ticket);

}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/wings/cache.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
