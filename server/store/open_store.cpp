#include "store/open_store.hpp"

#include "store/postgres_store.hpp"
#include "store/sqlite_store.hpp"

namespace ttt::server {

std::unique_ptr<Store> open_store(const std::string& db_path, const std::string& postgres,
                                  StoreUse use) {
  if (!postgres.empty()) {
    return std::make_unique<PostgresStore>(postgres,
                                           use == StoreUse::kServer ? PostgresStore::Use::kServer
                                           : use == StoreUse::kNode ? PostgresStore::Use::kNode
                                                                    : PostgresStore::Use::kReader);
  }
  if (db_path == "none" || db_path.empty()) return nullptr;
  return std::make_unique<SqliteStore>(db_path);
}

}  // namespace ttt::server
