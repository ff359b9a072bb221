#include "unavailable_backend.hpp"

#include <stdexcept>
#include <utility>

namespace matcompare {
namespace {

class UnavailableBackend final : public Backend {
 public:
  UnavailableBackend(BackendInfo info, std::string reason) : info_(std::move(info)), reason_(std::move(reason)) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override { return {false, reason_}; }
  std::unique_ptr<Workspace> prepare(const GemmShape&) const override {
    throw std::runtime_error(info_.name + ": " + reason_);
  }

 private:
  BackendInfo info_;
  std::string reason_;
};

}  // namespace

std::unique_ptr<Backend> make_unavailable_backend(BackendInfo info, std::string reason) {
  return std::make_unique<UnavailableBackend>(std::move(info), std::move(reason));
}

}  // namespace matcompare
