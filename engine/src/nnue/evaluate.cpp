#include "nnue/evaluate.h"

#include <atomic>
#include <mutex>

namespace stk::nnue {

namespace {
std::mutex g_mutex;
std::shared_ptr<const Network> g_network;
std::atomic<bool> g_enabled{true};
}  // namespace

bool load_network(const std::string& path, bool allow_trailing, std::string* error) {
  // Parse into a new object; only a complete, valid network is swapped in.
  std::shared_ptr<const Network> net = Network::load(path, allow_trailing, error);
  if (!net) return false;
  set_network(std::move(net));
  return true;
}

void set_network(std::shared_ptr<const Network> net) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_network.swap(net);
}

std::shared_ptr<const Network> network() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_network;
}

void set_enabled(bool on) { g_enabled = on; }
bool enabled() { return g_enabled; }
bool active() { return enabled() && network() != nullptr; }

}  // namespace stk::nnue
