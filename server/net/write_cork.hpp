// WriteCork: while one is open on a thread, the connections served on that
// thread keep what they are given to send, and each sends all of it in one
// write when the outermost cork closes. Opened around the handling of each
// message a session reads, so that what answering it sends to a connection
// (a Welcome and the game taken back, say) goes out together: over TLS one
// record of up to 16 KiB instead of one a frame, over plain TCP one
// system call. With one thread (the default) the lobby answers within that
// handling; with several, its answers arrive from its own thread and only the
// writer's gathering of what is queued joins them.
#pragma once

#include <memory>

namespace ttt::server {

class WriteCork {
 public:
  // A connection that can keep frames while a cork is open.
  class Writer {
   public:
    // Sends what it kept. Never throws.
    virtual void uncork() noexcept = 0;

   protected:
    ~Writer() = default;
  };

  WriteCork() noexcept;
  // The outermost cork uncorks every writer that kept something.
  ~WriteCork();
  WriteCork(const WriteCork&) = delete;
  WriteCork& operator=(const WriteCork&) = delete;

  // Whether a cork is open on the calling thread.
  static bool open() noexcept;
  // The writer keeps something: it is uncorked when the cork closes. Once
  // per writer while the cork is open.
  static void hold(std::shared_ptr<Writer> writer);
};

}  // namespace ttt::server
