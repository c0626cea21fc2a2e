// open_store: the store a server's flags name — PostgreSQL with
// --postgres CONNINFO, else the SQLite file of --db PATH; none with
// --db none. A reader (--export-games) leaves a PostgreSQL database free
// for its server. Throws StoreError when it can't be opened.
#pragma once

#include <memory>
#include <string>

#include "store/store.hpp"

namespace ttt::server {

// kServer: the one server of the records; kNode: one of several nodes of a
// lobby sharing them (PostgreSQL only); kReader: reads only.
enum class StoreUse { kServer, kNode, kReader };

std::unique_ptr<Store> open_store(const std::string& db_path, const std::string& postgres,
                                  StoreUse use = StoreUse::kServer);

}  // namespace ttt::server
