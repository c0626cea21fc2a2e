// Whether this test binary (and so the programs built beside it) runs under
// a sanitizer: loops are scaled down there, and figures that the sanitizer's
// own bookkeeping distorts (resident memory: ASan keeps freed blocks in
// quarantine and shadow memory beside every allocation) are not checked.
#pragma once

namespace ttt::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace ttt::testing
