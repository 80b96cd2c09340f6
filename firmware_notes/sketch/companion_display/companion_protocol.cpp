// The device side of the serial display protocol; see companion_protocol.h and PROTOCOL.md.

#include "companion_protocol.h"

#include <string.h>

namespace companion {

namespace {

const char HEX_DIGITS[] = "0123456789ABCDEF";

bool is_hex_upper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

unsigned hex_value(char c) { return c <= '9' ? unsigned(c - '0') : unsigned(c - 'A' + 10); }

bool is_digits(const char* text, size_t min_length, size_t max_length) {
  size_t length = strlen(text);
  if (length < min_length || length > max_length) return false;
  for (size_t i = 0; i < length; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

int to_int(const char* text) {
  int value = 0;
  for (; *text; ++text) value = value * 10 + (*text - '0');
  return value;
}

// Copies at most size-1 bytes and always terminates.
void copy_text(char* out, const char* text, size_t size) {
  size_t i = 0;
  for (; i + 1 < size && text[i]; ++i) out[i] = text[i];
  out[i] = '\0';
}

size_t append(char* out, size_t at, size_t size, const char* text) {
  for (; *text && at + 1 < size; ++text) out[at++] = *text;
  out[at] = '\0';
  return at;
}

size_t append_number(char* out, size_t at, size_t size, unsigned value) {
  char digits[6];
  int count = 0;
  do {
    digits[count++] = char('0' + value % 10);
    value /= 10;
  } while (value && count < 5);
  while (count && at + 1 < size) out[at++] = digits[--count];
  out[at] = '\0';
  return at;
}

// Fills a 16-character LCD line (padded with spaces) from text.
void lcd_line(char* line, const char* text) {
  size_t i = 0;
  for (; i < 16 && text[i]; ++i) line[i] = text[i];
  for (; i < 16; ++i) line[i] = ' ';
  line[16] = '\0';
}

struct Arity {
  const char* kind;
  int fields;
};

const Arity HOST_MESSAGES[] = {{"HELLO", 1}, {"VERDICT", 3}, {"TURN", 2}, {"DICE", 2},
                               {"SCORE", 4}, {"PIPS", 2},    {"TEXT", 1}, {"CLEAR", 0},
                               {"PING", 0}};

const char* const STATUSES[] = {"LEGAL",     "ILLEGAL", "WAITING", "REROLL",
                                "GAME_OVER", "INFO",    "WARNING"};

}  // namespace

const char* reason_name(Reason reason) {
  switch (reason) {
    case REASON_OK: return "ok";
    case REASON_TOO_LONG: return "too_long";
    case REASON_BAD_CHAR: return "bad_char";
    case REASON_NO_CHECKSUM: return "no_checksum";
    case REASON_CHECKSUM: return "checksum";
    case REASON_KIND: return "kind";
    case REASON_SEQ: return "seq";
    case REASON_UNKNOWN: return "unknown";
    case REASON_ARITY: return "arity";
    case REASON_VALUE: return "value";
  }
  return "unknown";
}

uint16_t crc16(const char* data, size_t length) {
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < length; ++i) {
    crc ^= uint16_t(uint8_t(data[i])) << 8;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 0x8000) ? uint16_t((crc << 1) ^ 0x1021) : uint16_t(crc << 1);
    }
  }
  return crc;
}

// -- LineAssembler ------------------------------------------------------------------------------

LineAssembler::LineAssembler() : length_(0), overflowed_(false) { buffer_[0] = '\0'; }

LineStatus LineAssembler::feed(char byte) {
  if (byte == '\n') {
    if (overflowed_) return LINE_TOO_LONG;
    if (length_ && buffer_[length_ - 1] == '\r') --length_;
    buffer_[length_] = '\0';
    return LINE_READY;
  }
  if (overflowed_) return LINE_NONE;
  if (length_ + 1 >= MAX_FRAME) {  // no room left for this byte and the newline
    overflowed_ = true;
    length_ = 0;
    return LINE_NONE;
  }
  buffer_[length_++] = byte;
  return LINE_NONE;
}

void LineAssembler::reset() {
  length_ = 0;
  overflowed_ = false;
  buffer_[0] = '\0';
}

// -- frames -------------------------------------------------------------------------------------

Reason parse_frame(const char* line, size_t length, Frame* frame) {
  if (length + 1 > MAX_FRAME) return REASON_TOO_LONG;
  for (size_t i = 0; i < length; ++i) {
    if (line[i] < 0x20 || line[i] > 0x7E) return REASON_BAD_CHAR;
  }
  size_t star = length;
  for (size_t i = length; i > 0; --i) {
    if (line[i - 1] == '*') {
      star = i - 1;
      break;
    }
  }
  if (star == length || length - star != 5) return REASON_NO_CHECKSUM;
  unsigned sent = 0;
  for (size_t i = star + 1; i < length; ++i) {
    if (!is_hex_upper(line[i])) return REASON_NO_CHECKSUM;
    sent = sent * 16 + hex_value(line[i]);
  }
  if (sent != crc16(line, star)) return REASON_CHECKSUM;

  memcpy(frame->buffer, line, star);
  frame->buffer[star] = '\0';
  // Split at '|': parts[0] is the kind, parts[1] the sequence number, the rest the fields.
  const char* parts[MAX_FIELDS + 2];
  int count = 0;
  bool too_many = false;
  parts[count++] = frame->buffer;
  for (size_t i = 0; i < star; ++i) {
    if (frame->buffer[i] == '|') {
      frame->buffer[i] = '\0';
      if (count == MAX_FIELDS + 2) {
        too_many = true;  // no message has this many fields; still read the kind and number
      } else {
        parts[count++] = frame->buffer + i + 1;
      }
    }
  }
  size_t kind_length = strlen(parts[0]);
  if (kind_length < 1 || kind_length > 9) return REASON_KIND;
  for (size_t i = 0; i < kind_length; ++i) {
    char c = parts[0][i];
    if (!((c >= 'A' && c <= 'Z') || c == '_')) return REASON_KIND;
  }
  if (count < 2 || !is_digits(parts[1], 1, 4)) return REASON_SEQ;
  copy_text(frame->kind, parts[0], sizeof frame->kind);
  frame->seq = unsigned(to_int(parts[1]));
  frame->field_count = count - 2;
  for (int i = 0; i < frame->field_count; ++i) frame->fields[i] = parts[i + 2];
  return too_many ? REASON_ARITY : REASON_OK;
}

Reason check_host_message(const Frame& frame) {
  int arity = -1;
  for (size_t i = 0; i < sizeof HOST_MESSAGES / sizeof HOST_MESSAGES[0]; ++i) {
    if (strcmp(frame.kind, HOST_MESSAGES[i].kind) == 0) arity = HOST_MESSAGES[i].fields;
  }
  if (arity < 0) return REASON_UNKNOWN;
  if (frame.field_count != arity) return REASON_ARITY;
  const char* const* f = frame.fields;
  if (strcmp(frame.kind, "HELLO") == 0 && !is_digits(f[0], 1, 3)) return REASON_VALUE;
  if (strcmp(frame.kind, "VERDICT") == 0) {
    bool known = false;
    for (size_t i = 0; i < sizeof STATUSES / sizeof STATUSES[0]; ++i) {
      if (strcmp(f[0], STATUSES[i]) == 0) known = true;
    }
    if (!known) return REASON_VALUE;
  }
  if (strcmp(frame.kind, "TURN") == 0 && strcmp(f[0], "white") != 0 && strcmp(f[0], "black") != 0)
    return REASON_VALUE;
  if (strcmp(frame.kind, "DICE") == 0) {
    for (int i = 0; i < 2; ++i) {
      if (strlen(f[i]) != 1 || f[i][0] < '1' || f[i][0] > '6') return REASON_VALUE;
    }
  }
  if (strcmp(frame.kind, "SCORE") == 0) {
    for (int i = 0; i < 3; ++i) {
      if (!is_digits(f[i], 1, 3)) return REASON_VALUE;
    }
    if (strcmp(f[3], "0") != 0 && strcmp(f[3], "1") != 0) return REASON_VALUE;
  }
  if (strcmp(frame.kind, "PIPS") == 0) {
    for (int i = 0; i < 2; ++i) {
      if (!is_digits(f[i], 1, 3)) return REASON_VALUE;
    }
  }
  return REASON_OK;
}

size_t format_frame(const char* kind, unsigned seq, const char* const* fields, int field_count,
                    char* out, size_t size) {
  size_t at = append(out, 0, size, kind);
  at = append(out, at, size, "|");
  at = append_number(out, at, size, seq);
  for (int i = 0; i < field_count; ++i) {
    at = append(out, at, size, "|");
    at = append(out, at, size, fields[i]);
  }
  if (at + 7 > size) return 0;  // "*CRCX\n" and '\0'
  uint16_t crc = crc16(out, at);
  out[at++] = '*';
  for (int shift = 12; shift >= 0; shift -= 4) out[at++] = HEX_DIGITS[(crc >> shift) & 0xF];
  out[at++] = '\n';
  out[at] = '\0';
  return at;
}

// -- Session ------------------------------------------------------------------------------------

Session::Session(const char* name) : name_(name), last_seq_(-1), changed_(true) {
  memset(&state_, 0, sizeof state_);
}

bool Session::take_changed() {
  bool changed = changed_;
  changed_ = false;
  return changed;
}

size_t Session::handle(const char* line, size_t length, bool too_long, char* reply, size_t size) {
  if (too_long) {
    const char* reason = reason_name(REASON_TOO_LONG);
    return format_frame("NAK", 0, &reason, 1, reply, size);
  }
  if (length == 0) return 0;
  Frame frame;
  Reason reason = parse_frame(line, length, &frame);
  if (reason != REASON_OK && reason != REASON_ARITY) {
    const char* name = reason_name(reason);
    return format_frame("NAK", 0, &name, 1, reply, size);  // no sequence number to trust
  }
  if (reason == REASON_OK) reason = check_host_message(frame);
  if (reason != REASON_OK) {
    const char* name = reason_name(reason);
    return format_frame("NAK", frame.seq, &name, 1, reply, size);
  }
  if (strcmp(frame.kind, "HELLO") == 0) {
    last_seq_ = long(frame.seq);
    char version[4];
    append_number(version, 0, sizeof version, unsigned(PROTOCOL_VERSION));
    const char* fields[2] = {version, name_};
    return format_frame("HELLO", frame.seq, fields, 2, reply, size);
  }
  if (long(frame.seq) != last_seq_) {  // a retry of the frame just applied is acked, not redone
    last_seq_ = long(frame.seq);
    apply(frame);
  }
  return format_frame("ACK", frame.seq, 0, 0, reply, size);
}

void Session::apply(const Frame& frame) {
  const char* const* f = frame.fields;
  DisplayState& s = state_;
  if (strcmp(frame.kind, "PING") == 0) return;
  changed_ = true;
  if (strcmp(frame.kind, "CLEAR") == 0) {
    memset(&s, 0, sizeof s);
  } else if (strcmp(frame.kind, "VERDICT") == 0) {
    s.has_verdict = true;
    s.text_is_newest = false;
    copy_text(s.status, f[0], sizeof s.status);
    copy_text(s.headline, f[1], sizeof s.headline);
    copy_text(s.detail, f[2], sizeof s.detail);
  } else if (strcmp(frame.kind, "TURN") == 0) {
    s.has_turn = true;
    copy_text(s.turn, f[0], sizeof s.turn);
    copy_text(s.player, f[1], sizeof s.player);
  } else if (strcmp(frame.kind, "DICE") == 0) {
    s.has_dice = true;
    s.dice[0] = f[0][0];
    s.dice[1] = f[1][0];
  } else if (strcmp(frame.kind, "SCORE") == 0) {
    s.has_score = true;
    s.score_white = to_int(f[0]);
    s.score_black = to_int(f[1]);
    s.match_length = to_int(f[2]);
    s.crawford = f[3][0] == '1';
  } else if (strcmp(frame.kind, "PIPS") == 0) {
    s.has_pips = true;
    s.pips_white = to_int(f[0]);
    s.pips_black = to_int(f[1]);
  } else if (strcmp(frame.kind, "TEXT") == 0) {
    s.has_text = true;
    s.text_is_newest = true;
    copy_text(s.text, f[0], sizeof s.text);
  }
}

// -- the LCD ------------------------------------------------------------------------------------

void render_lcd(const DisplayState& s, char* top, char* bottom) {
  if (s.has_text && s.text_is_newest) {
    lcd_line(top, s.text);
  } else if (s.has_verdict) {
    lcd_line(top, s.headline);
  } else {
    lcd_line(top, "Backgammon");
  }
  char text[24];
  size_t at = 0;
  text[0] = '\0';
  if (s.has_verdict && strcmp(s.status, "GAME_OVER") == 0 && s.has_score) {
    at = append(text, at, sizeof text, "W");
    at = append_number(text, at, sizeof text, unsigned(s.score_white));
    at = append(text, at, sizeof text, " B");
    at = append_number(text, at, sizeof text, unsigned(s.score_black));
    if (s.match_length) {
      at = append(text, at, sizeof text, " to");
      at = append_number(text, at, sizeof text, unsigned(s.match_length));
    }
    if (s.crawford) at = append(text, at, sizeof text, " C");
  } else {
    if (s.has_turn) at = append(text, at, sizeof text, s.turn[0] == 'w' ? "W " : "B ");
    if (s.has_dice) {
      char dice[5] = {s.dice[0], '-', s.dice[1], ' ', '\0'};
      at = append(text, at, sizeof text, dice);
    }
    if (s.has_pips) {
      at = append_number(text, at, sizeof text, unsigned(s.pips_white));
      at = append(text, at, sizeof text, ":");
      at = append_number(text, at, sizeof text, unsigned(s.pips_black));
    }
  }
  lcd_line(bottom, text);
}

}  // namespace companion
