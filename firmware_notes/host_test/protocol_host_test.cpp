// Runs the firmware's protocol code on a PC against the shared examples.
//
//   cd firmware_notes
//   g++ -std=c++11 -Wall -Wextra -Werror -pedantic -I sketch/companion_display
//       host_test/protocol_host_test.cpp sketch/companion_display/companion_protocol.cpp
//       -o /tmp/host_test
//   /tmp/host_test protocol_examples.txt
//
// tests/test_firmware_protocol.py does exactly this. Exit status 0 when every example passes;
// each failure is printed with its line number in the examples file.

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "companion_protocol.h"

using companion::Frame;
using companion::LineAssembler;
using companion::LineStatus;
using companion::Reason;
using companion::Session;

namespace {

int failures = 0;
int passed = 0;

void check(bool ok, int line, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failures;
    std::cerr << "protocol_examples.txt line " << line << ": " << what << "\n";
  }
}

// A token is a bare word or a quoted byte string with \n \r \t \\ \" \xNN escapes.
bool tokenize(const std::string& text, std::vector<std::string>* tokens) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (c == '"') {
      std::string out;
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\') {
          if (i + 1 >= text.size()) return false;
          char code = text[i + 1];
          if (code == 'x') {
            out += char(std::stoi(text.substr(i + 2, 2), nullptr, 16));
            i += 4;
            continue;
          }
          if (code == 'n') out += '\n';
          else if (code == 'r') out += '\r';
          else if (code == 't') out += '\t';
          else if (code == '\\') out += '\\';
          else if (code == '"') out += '"';
          else return false;
          i += 2;
        } else {
          out += text[i++];
        }
      }
      if (i >= text.size()) return false;
      ++i;
      tokens->push_back(out);
    } else {
      size_t end = i;
      while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
      tokens->push_back(text.substr(i, end - i));
      i = end;
    }
  }
  return true;
}

// Feeds bytes to a line assembler as the sketch does; returns the line status at the newline
// (a newline is added when the example leaves it out) and the assembled line.
LineStatus assemble(const std::string& data, std::string* line) {
  LineAssembler assembler;
  std::string bytes = data;
  if (bytes.empty() || bytes[bytes.size() - 1] != '\n') bytes += '\n';
  LineStatus status = companion::LINE_NONE;
  for (size_t i = 0; i < bytes.size(); ++i) {
    status = assembler.feed(bytes[i]);
    if (status != companion::LINE_NONE) break;
  }
  *line = std::string(assembler.line(), assembler.length());
  return status;
}

std::string printable(const std::string& bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c > 0x7E) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += char(c);
    }
  }
  return out;
}

void frame_example(int number, const std::vector<std::string>& t) {
  std::string line;
  LineStatus status = assemble(t[2], &line);
  Frame frame;
  Reason reason = status == companion::LINE_TOO_LONG
                      ? companion::REASON_TOO_LONG
                      : companion::parse_frame(line.data(), line.size(), &frame);
  std::string got = companion::reason_name(reason);
  check(got == t[1], number, "expected " + t[1] + ", got " + got + " for " + printable(t[2]));
  if (t[1] != "ok" || reason != companion::REASON_OK) return;
  bool same = t.size() >= 5 && frame.kind == t[3] && std::to_string(frame.seq) == t[4] &&
              frame.field_count == int(t.size()) - 5;
  for (int i = 0; same && i < frame.field_count; ++i) same = t[5 + i] == frame.fields[i];
  check(same, number, "decoded frame differs from the example");
  const std::string& data = t[2];
  bool plain_newline = data.size() >= 2 && data[data.size() - 1] == '\n' &&
                       data[data.size() - 2] != '\r';
  if (plain_newline) {  // the firmware's encoder writes exactly these bytes
    char out[companion::MAX_FRAME + 1];
    size_t length =
        companion::format_frame(frame.kind, frame.seq, frame.fields, frame.field_count, out,
                                sizeof out);
    check(std::string(out, length) == data, number, "format_frame gives " + printable(out));
  }
}

void message_example(int number, const std::vector<std::string>& t) {
  std::string line;
  assemble(t[2], &line);
  Frame frame;
  Reason reason = companion::parse_frame(line.data(), line.size(), &frame);
  if (reason == companion::REASON_OK) reason = companion::check_host_message(frame);
  std::string got = companion::reason_name(reason);
  check(got == t[1], number, "expected " + t[1] + ", got " + got + " for " + printable(t[2]));
}

void reply_example(int number, const std::vector<std::string>& t, Session* session) {
  LineAssembler assembler;
  std::string replies;
  char reply[companion::MAX_FRAME + 1];
  for (size_t i = 0; i < t[1].size(); ++i) {
    LineStatus status = assembler.feed(t[1][i]);
    if (status == companion::LINE_NONE) continue;
    size_t length = session->handle(assembler.line(), assembler.length(),
                                    status == companion::LINE_TOO_LONG, reply, sizeof reply);
    replies += std::string(reply, length);
    assembler.reset();
  }
  check(replies == t[2], number,
        "device answered " + printable(replies) + ", expected " + printable(t[2]));
}

// Checks of the firmware alone: the CRC check value, recovery from an over-long line, and
// what the LCD shows.
void firmware_checks() {
  check(companion::crc16("123456789", 9) == 0x29B1, 0, "CRC-16/CCITT-FALSE check value");

  LineAssembler assembler;
  std::string noise(300, 'x');
  LineStatus status = companion::LINE_NONE;
  for (size_t i = 0; i < noise.size(); ++i) status = assembler.feed(noise[i]);
  check(status == companion::LINE_NONE && assembler.feed('\n') == companion::LINE_TOO_LONG, 0,
        "an over-long line is reported once at its newline");
  assembler.reset();
  std::string ping = "PING|1*";
  for (size_t i = 0; i < ping.size(); ++i) assembler.feed(ping[i]);
  check(assembler.feed('\n') == companion::LINE_READY && assembler.length() == ping.size(), 0,
        "the next line after an over-long one is read whole");

  Session session("lcd16x2");
  char reply[companion::MAX_FRAME + 1];
  char top[17];
  char bottom[17];
  const char* lines[] = {
      "TURN|1|white|Alice", "DICE|2|6|5", "PIPS|3|167|160",
      "VERDICT|4|LEGAL|legal: 24/18 13/10|",
  };
  for (unsigned i = 0; i < 4; ++i) {
    char frame[companion::MAX_FRAME + 1];
    std::string body = lines[i];
    // Re-encode through format_frame so the checksum is right.
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t j = 0; j <= body.size(); ++j) {
      if (j == body.size() || body[j] == '|') {
        parts.push_back(body.substr(start, j - start));
        start = j + 1;
      }
    }
    std::vector<const char*> fields;
    for (size_t j = 2; j < parts.size(); ++j) fields.push_back(parts[j].c_str());
    size_t length = companion::format_frame(parts[0].c_str(), i + 1, fields.data(),
                                            int(fields.size()), frame, sizeof frame);
    session.handle(frame, length - 1, false, reply, sizeof reply);
  }
  check(session.take_changed() && !session.take_changed(), 0, "a change is reported once");
  {
    const char* text = "white doubles";
    char frame[companion::MAX_FRAME + 1];
    size_t length = companion::format_frame("TEXT", 5, &text, 1, frame, sizeof frame);
    session.handle(frame, length - 1, false, reply, sizeof reply);
    check(session.take_changed(), 0, "a new frame is applied");
    session.handle(frame, length - 1, false, reply, sizeof reply);
    check(!session.take_changed(), 0, "a retried frame (same number) is not applied twice");
    companion::render_lcd(session.state(), top, bottom);
    check(std::string(top) == "white doubles   ", 0, std::string("LCD top line: ") + top);
    const char* verdict[3] = {"LEGAL", "legal: 24/18 13/10", ""};
    length = companion::format_frame("VERDICT", 6, verdict, 3, frame, sizeof frame);
    session.handle(frame, length - 1, false, reply, sizeof reply);
  }
  companion::render_lcd(session.state(), top, bottom);
  check(std::string(top) == "legal: 24/18 13/", 0, std::string("LCD top line: ") + top);
  check(std::string(bottom) == "W 6-5 167:160   ", 0, std::string("LCD bottom line: ") + bottom);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " protocol_examples.txt\n";
    return 2;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  Session* session = nullptr;
  std::string text;
  int number = 0;
  int examples = 0;
  while (std::getline(file, text)) {
    ++number;
    size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    std::vector<std::string> t;
    if (!tokenize(text, &t) || t.empty()) {
      check(false, number, "malformed example line");
      continue;
    }
    ++examples;
    if (t[0] == "session") {
      delete session;
      session = new Session("lcd16x2");
    } else if (t[0] == "frame" && t.size() >= 3) {
      frame_example(number, t);
    } else if (t[0] == "message" && t.size() == 3) {
      message_example(number, t);
    } else if (t[0] == "reply" && t.size() == 3 && session) {
      reply_example(number, t, session);
    } else {
      check(false, number, "unknown example kind " + t[0]);
    }
  }
  delete session;
  firmware_checks();
  std::printf("%d examples, %d checks passed, %d failed\n", examples, passed, failures);
  return failures ? 1 : 0;
}
