// The Hub's protocol as huggingface_hub speaks it (pe/hub): URLs, the headers of its answers,
// redirects and the token, retries and their announced waits, a range answered with the whole
// file, and each error by X-Error-Code — against a scripted server whose answers are written
// here from the Hub's documented behaviour (huggingface_hub file_download.py, utils/_http.py).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "hub_test_transport.hpp"
#include "pe/hub/hub_answer.hpp"
#include "pe/hub/hub_client.hpp"
#include "pe/hub/hub_settings.hpp"
#include "pe/hub/hub_url.hpp"

namespace {

using namespace pe_test;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

pe::HubSettings test_settings(std::string token = "") {
  pe::HubSettings s;
  s.endpoint = "http://hub.test";
  s.token = std::move(token);
  s.token_source = s.token.empty() ? "" : "HF_TOKEN";
  s.user_agent = "pe-viz/9.9.9";
  s.retry_wait_scale = 0.001;
  return s;
}

// Runs one fetch to its end; returns its result or rethrows its error.
pe::HubFetchResult run(pe::HubClient& c, const std::string& path, std::optional<pe::ByteRange> range = std::nullopt,
                       const std::string& revision = "main") {
  const auto id = c.fetch("org/model", revision, path, range);
  for (int k = 0; k < 1000 && !c.finished(id); ++k) c.pump(20);
  return c.take(id);
}

pe::HubError error_of(pe::HubClient& c, const std::string& path, std::optional<pe::ByteRange> range = std::nullopt) {
  try {
    run(c, path, range);
  } catch (const pe::HubError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << path;
  return pe::HubError(pe::HubErrorKind::Http, "");
}

TEST(HubUrl, RevisionIsEncodedWithNoSafeCharactersAndThePathKeepsItsSlashes) {
  EXPECT_EQ(pe::hub_file_url("https://huggingface.co", "Qwen/Qwen3-8B", "refs/pr/1", "sub dir/config.json"),
            "https://huggingface.co/Qwen/Qwen3-8B/resolve/refs%2Fpr%2F1/sub%20dir/config.json");
  EXPECT_EQ(pe::percent_encode("a~b_c.d-e/f", ""), "a~b_c.d-e%2Ff");
  EXPECT_EQ(pe::percent_encode("\xc3\xa9"), "%C3%A9");
}

TEST(HubUrl, LocationsResolveAgainstTheUrlTheyAnswered) {
  const std::string base = "http://hub.test:8080/org/model/resolve/main/config.json";
  EXPECT_EQ(pe::resolve_location(base, "/api/resolve-cache/models/org/model/abc/config.json"),
            "http://hub.test:8080/api/resolve-cache/models/org/model/abc/config.json");
  EXPECT_EQ(pe::resolve_location(base, "https://cdn.test/x?sig=1"), "https://cdn.test/x?sig=1");
  EXPECT_EQ(pe::resolve_location(base, "other.json"), "http://hub.test:8080/org/model/resolve/main/other.json");
  EXPECT_EQ(pe::resolve_location(base, "//cdn.test/y"), "http://cdn.test/y");
  EXPECT_FALSE(pe::resolve_location(base, ""));
  EXPECT_EQ(pe::parse_url("HTTPS://Hub.Test:443/a")->origin(), "https://hub.test");
  EXPECT_NE(pe::parse_url("http://hub.test:8080/")->origin(), pe::parse_url("http://hub.test:8081/")->origin());
  EXPECT_FALSE(pe::parse_url("file:///etc/passwd"));
}

TEST(HubAnswer, RateLimitRetryAfterContentRangeAndEtag) {
  const auto r = pe::parse_rate_limit("\"resolvers\";r=0;t=55");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->resource, "resolvers");
  EXPECT_EQ(r->remaining, 0);
  EXPECT_EQ(r->reset_seconds, 55);
  EXPECT_EQ(pe::parse_rate_limit(" \"api\" ; r = 3 ; t = 7 ")->reset_seconds, 7);
  EXPECT_FALSE(pe::parse_rate_limit("\"api\";r=1"));
  EXPECT_FALSE(pe::parse_rate_limit("api;r=1;t=2"));
  EXPECT_FALSE(pe::parse_rate_limit("\"api\";r=-1;t=2"));
  EXPECT_EQ(pe::parse_retry_after(" 12 "), 12);
  EXPECT_FALSE(pe::parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"));
  const auto cr = pe::parse_content_range("bytes 0-99/1000");
  ASSERT_TRUE(cr);
  EXPECT_EQ(cr->first, 0u);
  EXPECT_EQ(cr->last, 99u);
  EXPECT_EQ(cr->total, 1000u);
  EXPECT_FALSE(pe::parse_content_range("bytes 0-99/*")->total);
  EXPECT_FALSE(pe::parse_content_range("bytes 9-1/100"));
  EXPECT_FALSE(pe::parse_content_range("bytes 0-99/99"));
  EXPECT_EQ(pe::etag_file_name("W/\"abc123\""), "abc123");
  EXPECT_EQ(pe::etag_file_name("\"e3b0c442\""), "e3b0c442");
  EXPECT_FALSE(pe::etag_file_name("\"../../etc\""));
  EXPECT_FALSE(pe::etag_file_name("\"\""));
  EXPECT_TRUE(pe::valid_commit_name("0123456789abcdef0123456789abcdef01234567"));
  EXPECT_FALSE(pe::valid_commit_name("../x"));
}

TEST(HubClient, RelativeRedirectKeepsTheTokenAnotherHostDoesNotGetIt) {
  std::vector<pe::HttpRequest> log;
  pe::HubClient c(test_settings("hf_secret"), std::make_unique<ScriptedTransport>([](const pe::HttpRequest& r) {
                    if (contains(r.url, "/resolve/main/config.json"))
                      return answer(307, {{"Location", "/api/resolve-cache/models/org/model/c0ffee/config.json"}, {"X-Repo-Commit", "c0ffee"},
                                          {"ETag", "\"abc\""}});
                    if (contains(r.url, "/api/resolve-cache/")) return answer(200, {}, "{}");
                    if (contains(r.url, "/resolve/main/model.safetensors"))
                      return answer(302, {{"Location", "https://cdn.test/blob?sig=1"}, {"X-Linked-Size", "1000"},
                                          {"X-Linked-Etag", "\"sha256abc\""}, {"X-Repo-Commit", "c0ffee"}});
                    return answer(206, {{"Content-Range", "bytes 0-9/1000"}}, "0123456789");
                  }, &log));
  const auto config = run(c, "config.json");
  EXPECT_EQ(config.commit, "c0ffee");
  EXPECT_EQ(config.etag, "\"abc\"");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(request_header(log[0], "Authorization"), "Bearer hf_secret");
  EXPECT_EQ(request_header(log[1], "Authorization"), "Bearer hf_secret");  // the same host
  EXPECT_EQ(request_header(log[0], "User-Agent"), "pe-viz/9.9.9");
  const auto part = run(c, "model.safetensors", pe::ByteRange{0, 10});
  EXPECT_EQ(part.size, 1000u);
  EXPECT_EQ(part.etag, "\"sha256abc\"");
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[3].url, "https://cdn.test/blob?sig=1");
  EXPECT_EQ(request_header(log[3], "Authorization"), "");  // another host: no token
  EXPECT_EQ(log[3].range, (pe::ByteRange{0, 10}));
}

TEST(HubClient, RateLimitWaitsAsItsHeaderSaysAndSaysSo) {
  int calls = 0;
  pe::HubClient c(test_settings(), std::make_unique<ScriptedTransport>([&](const pe::HttpRequest&) {
                    if (++calls == 1) return answer(429, {{"RateLimit", "\"resolvers\";r=0;t=4"}});
                    return answer(200, {}, "{}");
                  }));
  EXPECT_EQ(run(c, "config.json").answer.status, 200);
  const auto notices = c.take_notices();
  ASSERT_EQ(notices.size(), 1u);
  // t = 4 → 5 s (huggingface_hub adds 1 s), retry 1 of 5.
  EXPECT_TRUE(contains(notices[0], "rate limited by http://hub.test (429, RateLimit: \"resolvers\";r=0;t=4); waiting 5.0 s before retry 1 of 5"))
      << notices[0];
}

TEST(HubClient, ServerErrorsAreRetriedWithBackoffThenNamed) {
  int calls = 0;
  pe::HubClient c(test_settings(), std::make_unique<ScriptedTransport>([&](const pe::HttpRequest&) {
                    ++calls;
                    return answer(503, {{"X-Error-Message", "overloaded"}});
                  }));
  const pe::HubError e = error_of(c, "config.json");
  EXPECT_EQ(e.kind(), pe::HubErrorKind::Server);
  EXPECT_EQ(calls, 6);  // one try and five retries
  const auto notices = c.take_notices();
  ASSERT_EQ(notices.size(), 5u);
  EXPECT_TRUE(contains(notices[0], "waiting 1.0 s before retry 1 of 5"));
  EXPECT_TRUE(contains(notices[3], "waiting 8.0 s before retry 4 of 5"));
  EXPECT_TRUE(contains(notices[4], "waiting 8.0 s before retry 5 of 5"));
  EXPECT_TRUE(contains(e.what(), "overloaded")) << e.what();
}

TEST(HubClient, LostConnectionIsRetried) {
  int calls = 0;
  pe::HubClient c(test_settings(), std::make_unique<ScriptedTransport>([&](const pe::HttpRequest&) {
                    pe::HttpResponse r;
                    if (++calls == 1) {
                      r.error = "connection cut after 4 of 10 bytes";
                      return r;
                    }
                    return answer(206, {{"Content-Range", "bytes 0-9/10"}}, "0123456789");
                  }));
  EXPECT_EQ(run(c, "model.safetensors", pe::ByteRange{0, 10}).answer.body.size(), 10u);
  EXPECT_TRUE(contains(c.take_notices().at(0), "connection cut after 4 of 10 bytes"));
}

TEST(HubClient, WholeFileForARangeIsStoppedAndNamed) {
  pe::HubClient c(test_settings(), std::make_unique<ScriptedTransport>([](const pe::HttpRequest&) {
                    return answer(200, {{"Content-Length", "16000000000"}, {"X-Linked-Size", "16000000000"}}, "would be 16 GB");
                  }));
  const pe::HubError e = error_of(c, "model.safetensors", pe::ByteRange{0, 100001});
  EXPECT_EQ(e.kind(), pe::HubErrorKind::RangeIgnored);
  EXPECT_TRUE(contains(e.what(), "answered a range request (bytes=0-100000) with the whole file (200, 16000000000 bytes)")) << e.what();
  EXPECT_TRUE(contains(e.what(), "does not serve byte ranges")) << e.what();
}

TEST(HubClient, AWrongRangeIsRefused) {
  pe::HubClient c(test_settings(), std::make_unique<ScriptedTransport>([](const pe::HttpRequest&) {
                    return answer(206, {{"Content-Range", "bytes 5-14/100"}}, "0123456789");
                  }));
  EXPECT_EQ(error_of(c, "model.safetensors", pe::ByteRange{0, 10}).kind(), pe::HubErrorKind::BadAnswer);
}

TEST(HubClient, EachErrorCodeIsNamed) {
  const auto with = [](int status, std::string code, std::string token = "") {
    pe::HubClient c(test_settings(token), std::make_unique<ScriptedTransport>([=](const pe::HttpRequest&) {
                      return code.empty() ? answer(status) : answer(status, {{"X-Error-Code", code}});
                    }));
    return error_of(c, "config.json");
  };
  const pe::HubError gated = with(401, "GatedRepo");
  EXPECT_EQ(gated.kind(), pe::HubErrorKind::GatedRepo);
  EXPECT_TRUE(contains(gated.what(), "org/model is a gated model")) << gated.what();
  EXPECT_TRUE(contains(gated.what(), "accept the terms on http://hub.test/org/model")) << gated.what();
  EXPECT_TRUE(contains(gated.what(), "http://hub.test/settings/tokens")) << gated.what();
  EXPECT_TRUE(contains(gated.what(), "HF_TOKEN")) << gated.what();
  const pe::HubError not_granted = with(403, "GatedRepo", "hf_x");
  EXPECT_TRUE(contains(not_granted.what(), "the token from HF_TOKEN has not been granted access yet")) << not_granted.what();
  EXPECT_TRUE(contains(not_granted.what(), "request access on http://hub.test/org/model")) << not_granted.what();
  const pe::HubError repo = with(404, "RepoNotFound");
  EXPECT_EQ(repo.kind(), pe::HubErrorKind::RepoNotFound);
  EXPECT_TRUE(contains(repo.what(), "org/model: no such model on http://hub.test")) << repo.what();
  EXPECT_EQ(with(401, "").kind(), pe::HubErrorKind::RepoNotFound);  // a bare 401: private or missing
  const pe::HubError revision = with(404, "RevisionNotFound");
  EXPECT_TRUE(contains(revision.what(), "org/model has no revision \"main\"")) << revision.what();
  const pe::HubError entry = with(404, "EntryNotFound");
  EXPECT_EQ(entry.kind(), pe::HubErrorKind::EntryNotFound);
  EXPECT_TRUE(contains(entry.what(), "org/model has no file config.json")) << entry.what();
}

TEST(HubClient, OfflineAsksNothing) {
  pe::HubSettings s = test_settings();
  s.offline = true;
  pe::HubClient c(s, nullptr);
  try {
    c.fetch("org/model", "main", "config.json", std::nullopt);
    FAIL();
  } catch (const pe::HubError& e) {
    EXPECT_EQ(e.kind(), pe::HubErrorKind::Offline);
    EXPECT_TRUE(contains(e.what(), "HF_HUB_OFFLINE")) << e.what();
  }
}

TEST(HubSettings, FromTheEnvironmentAsHuggingfaceHubReadsIt) {
  const auto dir = std::filesystem::temp_directory_path() / ("pe-hub-settings-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "token") << "  hf_from_file\n";
  ::setenv("HF_HOME", dir.c_str(), 1);
  ::unsetenv("HF_TOKEN_PATH");
  ::setenv("HF_ENDPOINT", "http://127.0.0.1:9/", 1);
  ::unsetenv("HF_TOKEN");
  ::unsetenv("HUGGING_FACE_HUB_TOKEN");
  ::setenv("HF_HUB_OFFLINE", "yes", 1);
  pe::HubSettings s = pe::hub_settings_from_environment("pe-viz/1.0");
  EXPECT_EQ(s.endpoint, "http://127.0.0.1:9");
  EXPECT_EQ(s.token, "hf_from_file");
  EXPECT_EQ(s.token_source, (dir / "token").string());
  EXPECT_TRUE(s.offline);
  EXPECT_EQ(s.user_agent, "pe-viz/1.0");
  ::setenv("HUGGING_FACE_HUB_TOKEN", "hf_old", 1);
  EXPECT_EQ(pe::hub_settings_from_environment("").token, "hf_old");
  ::setenv("HF_TOKEN", "hf_new", 1);
  s = pe::hub_settings_from_environment("");
  EXPECT_EQ(s.token, "hf_new");
  EXPECT_EQ(s.token_source, "HF_TOKEN");
  ::setenv("HF_HUB_OFFLINE", "0", 1);
  EXPECT_FALSE(pe::hub_settings_from_environment("").offline);
  for (const char* v : {"HF_HOME", "HF_ENDPOINT", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_HUB_OFFLINE"}) ::unsetenv(v);
  std::filesystem::remove_all(dir);
}

}  // namespace
