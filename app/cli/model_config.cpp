#include "cli/model_config.hpp"

#include <chrono>
#include <memory>

#include "cli/interrupt.hpp"
#include "cli/transfer_progress.hpp"
#include "pe/weights/weights_error.hpp"
#include "state/hub_config.hpp"

namespace app {

void ensure_model_config(const std::string& model, std::ostream* err) {
  std::unique_ptr<pe::HubModel> hub = model_config_download(model);
  if (!hub) return;
  const InterruptGuard interrupt;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<TransferProgress> progress;
  if (err) progress = std::make_unique<TransferProgress>(*err, "pe-viz", model);
  while (!hub->advance_config(100)) {
    if (progress) {
      progress->notices(hub->client().take_notices());
      progress->update_bytes("config.json", hub->bytes_moved(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (InterruptGuard::interrupted()) {
      hub->cancel();
      throw pe::WeightsCancelled();
    }
  }
  if (progress) progress->notices(hub->client().take_notices());
  require_config_kept(*hub);
}

}  // namespace app
