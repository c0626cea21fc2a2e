#include "console/exit_status.hpp"

#include "console/session_text.hpp"
#include "text/safe_text.hpp"
#include "ttt/cli/invocation.hpp"
#include "view/node_text.hpp"

namespace ttt::client {
void ExitStatus::fatal(const wire::Error& error, bool welcomed, const std::string& name) {
  switch (error.code()) {
    case wire::ERROR_CODE_NAME_TAKEN:
      name_refused_ = true;  // said when the connection ends, with what to do about it
      return;
    case wire::ERROR_CODE_SESSION_ACTIVE:
      session_active_ = true;  // said when the connection ends
      return;
    case wire::ERROR_CODE_REPLACED:
      say("This session was taken over by another terminal (" + cli::invocation_name("ttt-client") +
          " --take-over there); this one stops.");
      return;
    case wire::ERROR_CODE_BAD_RESUME_TOKEN:
      say("The server no longer holds this session: signing in again as " + name + ".");
      return;
    default:
      break;
  }
  if (const auto words = node_error_text(error.code())) {
    say(sentence_case(*words) + ".");  // the connection tries again (another node first)
  } else if (welcomed) {
    // Said here; the reason the connection ends with does not say it again.
    // (Before any Welcome, that reason says it: "cannot connect to ...".)
    fatal_said_ =
        "the server closed the connection: " + safe_text(error.text(), field_width::kMessage);
    say(sentence_case(fatal_said_));
  }
}

void ExitStatus::failed(const std::string& reason, const std::string& name,
                        const std::string& name_refusal, const std::string& trust_refusal) {
  const bool untrusted = !trust_refusal.empty();
  code_ = name_refused_ || session_active_ ? kNameRefused : untrusted ? kUntrusted : kLost;
  if (!session_active_ && !name_refused_ && !untrusted && reason == fatal_said_) {
    terminal_.restore();  // the reason was the last line said: once is enough
    return;
  }
  terminal_.print_error(
      "ttt-client: " + (session_active_
                            ? name + " is connected from another terminal; `--take-over` moves the "
                                     "session here"
                        : name_refused_ ? name_refusal
                        : untrusted     ? trust_refusal
                                        : reason));
}

void ExitStatus::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
