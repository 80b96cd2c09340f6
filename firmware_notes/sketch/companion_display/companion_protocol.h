// The device side of the Backgammon Companion serial display protocol, version 1.
//
// Plain C++11 with no Arduino headers, no heap and nothing of the C library beyond <string.h>,
// so the same file runs in the sketch on an 8-bit AVR and on a PC, where
// firmware_notes/host_test/ compiles it with g++ and checks it against the examples in
// firmware_notes/protocol_examples.txt that the Python side is checked against too.
//
// The byte-exact description is firmware_notes/PROTOCOL.md. In short, a frame is one line:
//     KIND|SEQ|FIELD|...*CRCX\n
// with CRCX the CRC-16/CCITT-FALSE of everything before the '*', in four capital hex digits.

#ifndef COMPANION_PROTOCOL_H
#define COMPANION_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

namespace companion {

const int PROTOCOL_VERSION = 1;
const size_t MAX_FRAME = 120;  // bytes, newline included
const size_t MAX_FIELD = 40;   // longest text field the host sends
const int MAX_FIELDS = 8;      // more fields than any message has
const unsigned MAX_SEQ = 9999;

// Why a line or a frame is refused; reason_name() gives the word used in NAK frames.
enum Reason {
  REASON_OK = 0,
  REASON_TOO_LONG,
  REASON_BAD_CHAR,
  REASON_NO_CHECKSUM,
  REASON_CHECKSUM,
  REASON_KIND,
  REASON_SEQ,
  REASON_UNKNOWN,
  REASON_ARITY,
  REASON_VALUE
};

const char* reason_name(Reason reason);

// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR.
uint16_t crc16(const char* data, size_t length);

// Collects received bytes into lines. feed() returns LINE_READY when a '\n' completes a line
// (line() and length() then give it without "\n" or "\r\n"), LINE_TOO_LONG when a line ran
// past MAX_FRAME (its bytes were dropped), LINE_NONE otherwise. Call reset() after each line.
enum LineStatus { LINE_NONE, LINE_READY, LINE_TOO_LONG };

class LineAssembler {
 public:
  LineAssembler();
  LineStatus feed(char byte);
  const char* line() const { return buffer_; }
  size_t length() const { return length_; }
  void reset();

 private:
  char buffer_[MAX_FRAME + 1];
  size_t length_;
  bool overflowed_;
};

// One decoded frame. The fields point into buffer, which parse_frame fills with a copy of the
// line whose '|' and '*' are replaced by '\0'.
struct Frame {
  char kind[10];
  unsigned seq;
  int field_count;
  const char* fields[MAX_FIELDS];
  char buffer[MAX_FRAME + 1];
};

// Decodes one line (without its newline). Checks, in this order, the same as the Python side:
// length, printable ASCII, '*' + four hex digits, checksum, kind, sequence number.
// A sound frame with more than MAX_FIELDS fields gives REASON_ARITY with kind and seq filled in.
Reason parse_frame(const char* line, size_t length, Frame* frame);

// Checks a host frame's kind, number of fields and values before the device acts on it.
Reason check_host_message(const Frame& frame);

// Writes "KIND|SEQ|FIELD...*CRCX\n" into out (with a terminating '\0'); returns its length,
// or 0 when it does not fit in size bytes.
size_t format_frame(const char* kind, unsigned seq, const char* const* fields, int field_count,
                    char* out, size_t size);

// What the display shows: the newest values of each message kind.
struct DisplayState {
  bool has_verdict, has_turn, has_dice, has_score, has_pips, has_text;
  char status[10];
  char headline[MAX_FIELD + 1];
  char detail[MAX_FIELD + 1];
  char turn[6];
  char player[MAX_FIELD + 1];
  char dice[2];
  int score_white, score_black, match_length;
  bool crawford;
  int pips_white, pips_black;
  char text[MAX_FIELD + 1];
  bool text_is_newest;  // TEXT came after the last VERDICT: show it on the top line
};

// The protocol state machine: answers each line and keeps the DisplayState up to date.
class Session {
 public:
  explicit Session(const char* name);
  // Handles one line from the assembler; writes the reply frame to reply (size bytes) and
  // returns its length (0: send nothing). too_long is true for LINE_TOO_LONG.
  size_t handle(const char* line, size_t length, bool too_long, char* reply, size_t size);
  const DisplayState& state() const { return state_; }
  // True once after each change of the state: the sketch redraws the LCD then.
  bool take_changed();

 private:
  void apply(const Frame& frame);
  const char* name_;
  long last_seq_;
  bool changed_;
  DisplayState state_;
};

// The two 16-character lines of a 16x2 LCD (each buffer at least 17 bytes):
//   top:    the verdict headline, or a newer TEXT message, or "Backgammon"
//   bottom: whose turn, the dice and the pip counts, e.g. "W 6-5 167:160"; after GAME_OVER the
//           score instead, e.g. "W2 B4 to5 C" (C = Crawford game)
void render_lcd(const DisplayState& state, char* top, char* bottom);

}  // namespace companion

#endif  // COMPANION_PROTOCOL_H
