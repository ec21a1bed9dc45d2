#pragma once
// pe/hub: models on the Hugging Face Hub by name, as huggingface_hub reads them (HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE, the cache layout, redirects, retries, X-Error-Code), over an HTTP transport the platform gives (libcurl, fetch()); config.json and the index kept in the Hugging Face cache, ranges of large files (headers, q/k rows) in pe-viz's own.
// Uses: base, encodings, scaling, multimodal, models, weights.
#include "pe/hub/http_transport.hpp"
#include "pe/hub/hub_answer.hpp"
#include "pe/hub/hub_caches.hpp"
#include "pe/hub/hub_client.hpp"
#include "pe/hub/hub_model.hpp"
#include "pe/hub/hub_range_loader.hpp"
#include "pe/hub/hub_settings.hpp"
#include "pe/hub/hub_url.hpp"
