#include "web/wire_schema.hpp"

#include <google/protobuf/descriptor.h>

#include "ttt.pb.h"

namespace ttt::server::web {
namespace {

namespace pb = google::protobuf;

// Names in ttt.proto are identifiers: no escaping is needed, but quote
// them as JSON all the same.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void add_message(const pb::Descriptor& message, std::string& messages, bool& first) {
  if (!first) messages += ",";
  first = false;
  messages += quoted(message.full_name()) + ":[";
  for (int i = 0; i < message.field_count(); ++i) {
    const pb::FieldDescriptor& f = *message.field(i);
    if (i > 0) messages += ",";
    std::string type_name;
    if (f.message_type() != nullptr) type_name = f.message_type()->full_name();
    if (f.enum_type() != nullptr) type_name = f.enum_type()->full_name();
    const auto* oneof = f.real_containing_oneof();
    messages += "[" + std::to_string(f.number()) + "," + quoted(f.name()) + "," +
                quoted(f.type_name()) + "," + (f.is_repeated() ? "1" : "0") + "," +
                quoted(type_name) + "," + quoted(oneof ? oneof->name() : std::string()) + "]";
  }
  messages += "]";
  for (int i = 0; i < message.nested_type_count(); ++i) {
    add_message(*message.nested_type(i), messages, first);
  }
}

void add_enum(const pb::EnumDescriptor& e, std::string& enums, bool& first) {
  if (!first) enums += ",";
  first = false;
  enums += quoted(e.full_name()) + ":{";
  for (int i = 0; i < e.value_count(); ++i) {
    if (i > 0) enums += ",";
    enums += quoted(e.value(i)->name()) + ":" + std::to_string(e.value(i)->number());
  }
  enums += "}";
}

}  // namespace

std::string wire_schema_json() {
  const pb::FileDescriptor& file = *wire::ClientMessage::descriptor()->file();
  std::string messages, enums;
  bool first_message = true, first_enum = true;
  for (int i = 0; i < file.message_type_count(); ++i) {
    add_message(*file.message_type(i), messages, first_message);
  }
  for (int i = 0; i < file.enum_type_count(); ++i) add_enum(*file.enum_type(i), enums, first_enum);
  return "{\"messages\":{" + messages + "},\"enums\":{" + enums + "}}";
}

}  // namespace ttt::server::web
