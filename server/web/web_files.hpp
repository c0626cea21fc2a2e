// The web client's files (client/web/), compiled into ttt-server by the
// build (embed_files.cmake writes their bytes into a generated source).
#pragma once

#include <cstddef>

namespace ttt::server::web {

struct EmbeddedFile {
  const char* path;  // as served: "/index.html", "/js/app.js"
  const unsigned char* data;
  std::size_t size;
};

extern const EmbeddedFile kEmbeddedFiles[];
extern const std::size_t kEmbeddedFileCount;

}  // namespace ttt::server::web
