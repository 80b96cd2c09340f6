// Runs the whole sketch (companion_display.ino) on a PC, with stub Serial, pins and LCD.
//
//   cd firmware_notes
//   g++ -std=c++11 -Wall -Wextra -Werror -I host_test/arduino_stubs -I sketch/companion_display
//       host_test/sketch_host_test.cpp sketch/companion_display/companion_protocol.cpp
//       -o /tmp/sketch_test
//   /tmp/sketch_test
//
// The host's frames go in through Serial; the test checks the replies, the LCD's two lines and
// the verdict lights, as a player would see them.

#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include "Arduino.h"

StubSerial Serial;
std::map<int, int> stub_pins;
std::map<int, int> stub_pin_modes;
unsigned long stub_millis = 0;

#include "companion_display.ino"

namespace {

int failures = 0;
int passed = 0;

void check(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failures;
    std::cerr << "sketch: " << what << "\n";
  }
}

std::string frame(const char* kind, unsigned seq, const char* const* fields, int count) {
  char out[companion::MAX_FRAME + 1];
  size_t length = companion::format_frame(kind, seq, fields, count, out, sizeof out);
  return std::string(out, length);
}

std::string send(const std::string& bytes) {
  Serial.output.clear();
  Serial.receive(bytes);
  loop();
  return Serial.output;
}

}  // namespace

int main() {
  setup();
  check(Serial.baud == 115200, "the sketch talks at 115200 baud");
  check(lcd.initialised && lcd.lit, "the LCD is started with its backlight on");
  check(lcd.lines[1] == "waiting for host", "greeting: " + lcd.lines[1]);

  const char* version[] = {"1"};
  const char* hello_reply[] = {"1", "lcd16x2"};
  check(send(frame("HELLO", 1, version, 1)) == frame("HELLO", 1, hello_reply, 2),
        "the sketch answers HELLO with its version and name");
  check(lcd.lines[1] == "waiting for host", "a handshake alone leaves the greeting");

  const char* turn[] = {"black", "Bob"};
  const char* dice[] = {"3", "1"};
  const char* pips[] = {"160", "167"};
  std::string all = frame("TURN", 2, turn, 2) + frame("DICE", 3, dice, 2) +
                    frame("PIPS", 4, pips, 2);
  check(send(all) == frame("ACK", 2, nullptr, 0) + frame("ACK", 3, nullptr, 0) +
                         frame("ACK", 4, nullptr, 0),
        "three frames in one read are acknowledged in order");
  check(lcd.lines[0] == "Backgammon      ", "top line before a verdict: " + lcd.lines[0]);
  check(lcd.lines[1] == "B 3-1 160:167   ", "bottom line: " + lcd.lines[1]);

  const char* illegal[] = {"ILLEGAL", "illegal: bar first", "enter from the bar"};
  stub_millis = 0;
  send(frame("VERDICT", 5, illegal, 3));
  check(lcd.lines[0] == "illegal: bar fir", "verdict line: " + lcd.lines[0]);
  check(stub_pins[RED_PIN] == HIGH && stub_pins[GREEN_PIN] == LOW, "red is lit for illegal");
  stub_millis = BLINK_MS;
  loop();
  check(stub_pins[RED_PIN] == LOW, "red blinks for illegal");

  // Split across reads and with boot noise before it: still one frame, one answer.
  std::string legal_verdict;
  const char* legal[] = {"LEGAL", "legal: bar/22 6/5", ""};
  legal_verdict = frame("VERDICT", 6, legal, 3);
  send("\x01\x02noise\r\n");
  send(legal_verdict.substr(0, 10));
  check(send(legal_verdict.substr(10)) == frame("ACK", 6, nullptr, 0), "a frame split in two");
  check(stub_pins[GREEN_PIN] == HIGH && stub_pins[RED_PIN] == LOW, "green is lit for legal");

  const char* score[] = {"2", "4", "5", "1"};
  const char* over[] = {"GAME_OVER", "black wins", "1 point"};
  send(frame("SCORE", 7, score, 4) + frame("VERDICT", 8, over, 3));
  check(lcd.lines[0] == "black wins      " && lcd.lines[1] == "W2 B4 to5 C     ",
        "game over shows the score: " + lcd.lines[1]);

  send(frame("CLEAR", 9, nullptr, 0));
  check(lcd.lines[0] == "Backgammon      " && lcd.lines[1] == "                ",
        "CLEAR empties the screen");
  check(stub_pins[GREEN_PIN] == LOW && stub_pins[AMBER_PIN] == LOW, "CLEAR puts the lights out");

  std::printf("sketch: %d checks passed, %d failed\n", passed, failures);
  return failures ? 1 : 0;
}
